"""Write DUCView 1.4 files: the same inline DTD, <line> text and UTF-16 offsets DUCView reads.

Labels are derived from the text, as DUCView derives them: a part's label is its text without
line breaks; a contributor's label is its parts in text order joined by "..."; a peer SCU's
label is "(weight) label".
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from annotator.ducview.offsets import OffsetMap
from annotator.ducview.reader import (
    NON_MATCHING_LABEL,
    NON_MATCHING_UID,
    Contributor,
    PeerAnnotationDocument,
    PyramidDocument,
    Scu,
)

PYRAMID_DTD = """ <!ELEMENT pyramid (startDocumentRegEx?,text,scu*)>
 <!ELEMENT startDocumentRegEx (#PCDATA)>
 <!ELEMENT text (line*)>
 <!ELEMENT line (#PCDATA)>
 <!ELEMENT scu (contributor)+>
 <!ATTLIST scu uid CDATA #REQUIRED
               label CDATA #REQUIRED
               comment CDATA #IMPLIED>
 <!ELEMENT contributor (part)+>
 <!ATTLIST contributor label CDATA #REQUIRED
                       comment CDATA #IMPLIED>
 <!ELEMENT part EMPTY>
 <!ATTLIST part label CDATA #REQUIRED
                start CDATA #REQUIRED
                end   CDATA #REQUIRED>
"""
PEER_DTD = """ <!ELEMENT peerAnnotation (pyramid,annotation)>
 <!ELEMENT annotation (text,peerscu+)>
 <!ELEMENT peerscu (contributor)*>
 <!ATTLIST peerscu uid CDATA #REQUIRED
                   label CDATA #REQUIRED
                   comment CDATA #IMPLIED>
"""


def xml_text(value: str) -> str:
    """Escape as DUCView does: quotes too, in text as in attributes; and a carriage return as
    &#13;, which XML readers would otherwise turn into a line feed (changing the text read back)."""
    return escape(value, {'"': "&quot;", "\r": "&#13;"})


def quoteattr(value: str) -> str:
    return '"' + escape(value, {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}) + '"'


def part_label(text: str, start: int, end: int) -> str:
    return text[start:end].replace("\n", "")


def contributor_label(text: str, contributor: Contributor) -> str:
    return "...".join(
        part_label(text, p.start, p.end) for p in sorted(contributor.parts, key=lambda p: p.start)
    )


def _comment(comment: str | None) -> str:
    return f" comment={quoteattr(comment)}" if comment else ""


def _text_lines(text: str, indent: str) -> list[str]:
    # DUCView's text is every <line> followed by "\n": the text must end with one.
    body = text[:-1] if text.endswith("\n") else text
    lines = [f"{indent}<text>"]
    lines.extend(f"{indent} <line>{xml_text(line)}</line>" for line in body.split("\n"))
    lines.append(f"{indent}</text>")
    return lines


def _contributors(contributors: list[Contributor], text: str, offsets: OffsetMap) -> list[str]:
    lines = []
    for contributor in contributors:
        lines.append(
            f"  <contributor label={quoteattr(contributor_label(text, contributor))}"
            f"{_comment(contributor.comment)}>"
        )
        for part in contributor.parts:
            lines.append(
                f"   <part label={quoteattr(part_label(text, part.start, part.end))} "
                f'start="{offsets.to_utf16(part.start)}" end="{offsets.to_utf16(part.end)}"/>'
            )
        lines.append("  </contributor>")
    return lines


def _pyramid_body(pyramid: PyramidDocument) -> list[str]:
    lines = ["<pyramid>"]
    if pyramid.start_document_regex:
        regex = pyramid.start_document_regex.replace("]]>", "]]]]><![CDATA[>")
        lines.append(f"<startDocumentRegEx><![CDATA[{regex}]]></startDocumentRegEx>")
    lines.extend(_text_lines(pyramid.text, " "))
    offsets = OffsetMap(pyramid.text)
    for scu in pyramid.scus:
        lines.append(f' <scu uid="{scu.uid}" label={quoteattr(scu.label)}{_comment(scu.comment)}>')
        lines.extend(_contributors(scu.contributors, pyramid.text, offsets))
        lines.append(" </scu>")
    lines.append("</pyramid>")
    return lines


def _document(root: str, dtd: str, note: str | None, body: list[str]) -> bytes:
    head = ['<?xml version="1.0"?>']
    if note:
        head.append(note)
    head.extend([f"<!DOCTYPE {root} [", dtd, "]>", ""])
    return ("\n".join(head + body) + "\n").encode("utf-8")


def write_pyramid(pyramid: PyramidDocument, note: str | None = None) -> bytes:
    return _document("pyramid", PYRAMID_DTD, note, _pyramid_body(pyramid))


def write_peer_annotation(
    annotation: PeerAnnotationDocument, weights: dict[int, int], note: str | None = None
) -> bytes:
    """weights: DUCView's weight (number of contributors) of each SCU uid, for the "(w)" labels."""
    body = ["<peerAnnotation>", *_pyramid_body(annotation.pyramid), "<annotation>"]
    body.extend(_text_lines(annotation.text, " "))
    offsets = OffsetMap(annotation.text)
    for peer_scu in annotation.peer_scus:
        label = (
            NON_MATCHING_LABEL
            if peer_scu.uid == NON_MATCHING_UID
            else f"({weights[peer_scu.uid]}) {peer_scu.label}"
        )
        body.append(
            f' <peerscu uid="{peer_scu.uid}" label={quoteattr(label)}{_comment(peer_scu.comment)}>'
        )
        body.extend(_contributors(peer_scu.contributors, annotation.text, offsets))
        body.append(" </peerscu>")
    body.extend(["</annotation>", "</peerAnnotation>"])
    return _document("peerAnnotation", PEER_DTD + PYRAMID_DTD, note, body)


__all__ = ["write_pyramid", "write_peer_annotation", "Scu"]
