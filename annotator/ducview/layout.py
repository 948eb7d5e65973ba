"""Where the model summaries lie in a DUCView pyramid text.

DUCView keeps all model summaries of a pyramid in one text and finds them with the pyramid's
`startDocumentRegEx`: each match starts a model (text before the first match belongs to none).
Pyramids without the regex (8 of the 65 NIST ones, e.g. D0640) still carry DUC header lines:

    ---------------
    D0640.M.250.D.C
    ---------------

so those are searched for instead; failing both, the caller must give a regex.

The text is cut into: for each model, a *header* (everything since the previous model's text:
blank lines, the dashes, the summary's name) and the model's *text* (its summary, without
surrounding blank lines); then a *trailer*. Concatenating header + text for every model, then the
trailer, gives the pyramid text back exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from annotator.ducview.errors import DucviewError

# A line of dashes, a summary name alone on a line, a line of dashes.
DUC_HEADER = re.compile(r"^-+[ \t]*\n[ \t]*(\S+)[ \t]*\n-+[ \t]*\n", re.MULTILINE)
# The leading "#4" line DUCView writes: the number of model summaries.
DECLARED_COUNT = re.compile(r"\A\s*#(\d+)\s*\n")
# DUC summary names end in the author: D0640.M.250.D.C -> C, D0736-C.M.100.H.G -> G.
DUC_SUMMARY_NAME = re.compile(r"^D\d+[\w-]*\.M\.\d+\.[A-Z]\.(\w+)$")
# The app's own names (annotator.transfer.uploads): D0601.model.A.txt -> A.
OWN_SUMMARY_NAME = re.compile(r"^[\w-]+\.model\.(.+?)(?:\.txt)?$")


@dataclass
class ModelSegment:
    name: str  # the summary's name in its header, e.g. "D0640.M.250.D.C"
    author: str  # its author id, e.g. "C"
    header: str  # the text between the previous model's text (or the start) and this one
    text: str  # the model summary itself
    offset: int  # where `text` starts in the pyramid text


@dataclass
class Layout:
    models: list[ModelSegment]
    trailer: str
    found_by: str  # "startDocumentRegEx", "DUC header lines" or "--model-regex"

    def join(self) -> str:
        return "".join(m.header + m.text for m in self.models) + self.trailer

    def model_at(self, start: int, end: int) -> int | None:
        """Index of the model whose text (or the blank space around it) holds [start, end)."""
        for index, model in enumerate(self.models):
            region_start = model.offset - len(model.header) if index else 0
            next_start = (
                self.models[index + 1].offset - len(self.models[index + 1].header)
                if index + 1 < len(self.models)
                else model.offset + len(model.text) + len(self.trailer)
            )
            if region_start <= start and end <= next_start:
                return index
        return None


def declared_model_count(text: str) -> int | None:
    match = DECLARED_COUNT.match(text)
    return int(match.group(1)) if match else None


def _name_of(header_match: str) -> str:
    for line in header_match.split("\n"):
        name = line.strip().strip("-").strip()
        if name:
            return name
    return ""


def author_of(name: str, position: int) -> str:
    duc = DUC_SUMMARY_NAME.match(name) or OWN_SUMMARY_NAME.match(name)
    if duc:
        return duc.group(1)
    return name or str(position + 1)


def compile_java_regex(pattern: str) -> re.Pattern[str]:
    """DUCView's regexes are Java regexes; the ones in use are also valid Python regexes."""
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise DucviewError(
            f"startDocumentRegEx {pattern!r} is not a valid regular expression: {exc}"
        ) from None


HEADER_LINE = re.compile(r"^[ \t]*(?:-*|D\d+[\w-]*\.M\.\d+\.[A-Z]\.\w+)[ \t]*$")


def _summary_within(body: str) -> tuple[int, str]:
    """(where the summary starts in body, the summary): without the blank lines, dash lines and
    DUC summary names around it. A startDocumentRegEx may match only part of a DUC header (NIST's
    .pans cut some models after the dashes): the rest of the header is not the summary's."""
    lines = body.split("\n")
    first, last = 0, len(lines)
    while first < last and HEADER_LINE.match(lines[first]):
        first += 1
    while last > first and HEADER_LINE.match(lines[last - 1]):
        last -= 1
    lead = sum(len(line) + 1 for line in lines[:first])
    summary = "\n".join(lines[first:last]).strip()
    return lead + (len(body[lead:]) - len(body[lead:].lstrip())), summary


def split_models(text: str, regex: str | None, model_regex: str | None = None) -> Layout:
    """Cut a pyramid text into its model summaries (see the module docstring)."""
    declared = declared_model_count(text)
    if model_regex:
        matches, found_by = list(compile_java_regex(model_regex).finditer(text)), "--model-regex"
    elif regex:
        matches, found_by = list(compile_java_regex(regex).finditer(text)), "startDocumentRegEx"
    else:
        matches, found_by = list(DUC_HEADER.finditer(text)), "DUC header lines"
        if not matches or (declared is not None and declared != len(matches)):
            raise DucviewError(
                "cannot find the model summaries: the pyramid has no startDocumentRegEx and "
                f"{len(matches)} DUC header lines (its #N line says {declared}); "
                "give the separator with --model-regex"
            )
    if not matches:
        raise DucviewError(
            f"the {found_by} ({(model_regex or regex)!r}) matches nothing in the pyramid text"
        )

    models: list[ModelSegment] = []
    previous_end = 0
    for index, match in enumerate(matches):
        body_end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        body = text[match.end() : body_end]
        lead, summary = _summary_within(body)
        name = _name_of(match.group(0)) or _name_of(body[:lead])
        if not summary:
            raise DucviewError(f"model summary {index + 1} ({name or 'unnamed'}) is empty")
        offset = match.end() + lead
        models.append(
            ModelSegment(
                name=name,
                author=author_of(name, index),
                header=text[previous_end:offset],
                text=summary,
                offset=offset,
            )
        )
        previous_end = offset + len(summary)
    authors = [m.author for m in models]
    duplicates = sorted({a for a in authors if authors.count(a) > 1})
    if duplicates:
        raise DucviewError(f"two model summaries have the same author id {duplicates[0]!r}")
    return Layout(models=models, trailer=text[previous_end:], found_by=found_by)


# A startDocumentRegEx for DUC header lines (DUC_HEADER, as a Java regex: no multiline `^`).
DUC_HEADER_REGEX = r"-+[ \t]*\n[ \t]*\S+[ \t]*\n-+[ \t]*\n"


def java_literal(text: str) -> str:
    """`text` as a Java (and Python) regex matching it literally, on one line: every character
    but letters, digits and spaces quoted, line breaks and tabs as \\n, \\r, \\t."""
    named = {"\n": r"\n", "\r": r"\r", "\t": r"\t"}
    return "".join(
        named.get(c) or (c if c.isalnum() or c == " " or ord(c) > 127 else "\\" + c) for c in text
    )


def regex_for_models(text: str, models: list[tuple[int, int]]) -> str | None:
    """A startDocumentRegEx for a pyramid text whose file had none (issue 33: DUCView 1.4, scoring
    a file alone, then counts no models and gives no modified score): a regex matching once in
    each model's header and nowhere else. `models`: (where its header starts, where its text
    starts) for each model. DUC header lines where every header has them, else each header's own
    words (without the leading "#N" line and blank lines), else with their line breaks; None if
    none of these finds exactly the models."""
    headers = [text[start:end] for start, end in models]
    cores = [
        (DECLARED_COUNT.sub("", header, count=1) if i == 0 else header).strip()
        for i, header in enumerate(headers)
    ]
    candidates = [DUC_HEADER_REGEX]
    if all(cores):
        candidates.append("|".join(dict.fromkeys(java_literal(core) for core in cores)))
        # The same with the line breaks around them: words that a summary also holds
        whole = [headers[0][len(headers[0]) - len(headers[0].lstrip("#0123456789")) :]]
        candidates.append("|".join(dict.fromkeys(java_literal(h) for h in whole + headers[1:])))
    for candidate in candidates:
        matches = list(re.finditer(candidate, text))
        if len(matches) == len(models) and all(
            start <= match.start() and match.end() <= end
            for match, (start, end) in zip(matches, models)
        ):
            return candidate
    return None
