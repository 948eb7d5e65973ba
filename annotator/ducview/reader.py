"""Parse DUCView .pyr and .pan files into plain dataclasses.

The format (DUCView 1.4/1.5, see shared/notes/ducview.md):

    .pyr  <pyramid> <startDocumentRegEx>? <text><line>...</line>*</text> <scu>*
    .pan  <peerAnnotation> <pyramid>...</pyramid>
              <annotation> <text>...</text> <peerscu uid label comment?> <contributor>* ...
              </annotation> <score/>?   (1.5 only)

The document text is every <line> followed by "\\n". Part offsets are 0-based UTF-16 code units,
end exclusive, into that text; here they are converted to code points once, on reading.
Parsing goes through expat with defusedxml's protections: entity declarations (the "billion
laughs" bomb) and external references are refused. expat is driven directly, as ElementTree drives
it (SAX's layers cost twice ElementTree's parse; this is on a par with it).
"""

from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass, field
from typing import NoReturn
from xml.parsers import expat
from xml.parsers.expat import XMLParserType

from defusedxml import DefusedXmlException
from defusedxml.common import EntitiesForbidden, ExternalReferenceForbidden

from annotator.ducview.errors import DucviewError
from annotator.ducview.offsets import OffsetMap

NON_MATCHING_UID = 0
NON_MATCHING_LABEL = "All non-matching SCUs go here"


@dataclass(slots=True)  # made by the thousand: slots make them cheaper
class Part:
    start: int  # code points into the document text
    end: int  # exclusive
    label: str
    line: int = 0  # line of the file it came from, for messages
    # Offsets DUCView opens but that hold no words (end at or before start, e.g. start="368"
    # end="367"): the importer re-anchors the part by its label, or keeps it empty (a problem).
    inverted: bool = False


@dataclass(slots=True)
class Contributor:
    label: str
    comment: str | None
    parts: list[Part] = field(default_factory=list)
    line: int = 0


@dataclass(slots=True)
class Scu:
    uid: int
    label: str
    comment: str | None
    contributors: list[Contributor] = field(default_factory=list)
    line: int = 0


@dataclass
class PyramidDocument:
    text: str
    start_document_regex: str | None
    scus: list[Scu]
    # Embedded in a .pan: the line it starts on and a digest of its bytes (`read_any`); files
    # with the same key hold the same pyramid, read once.
    embedded_key: tuple[int, bytes] | None = field(default=None, compare=False, repr=False)


@dataclass
class PeerAnnotationDocument:
    pyramid: PyramidDocument
    text: str
    peer_scus: list[Scu]  # uid 0 holds the non-matching (zero weight) PSEs


class _Builder:
    """Builds the dataclasses from expat's events, remembering the line of every element.

    expat is driven directly (as ElementTree drives it, without SAX's layers of Python calls per
    event): one call per element start and end, and one per run of character data."""

    def __init__(self, parser: XMLParserType) -> None:
        self._parser = parser
        self.root: str | None = None
        self.regex: str | None = None
        self.pyramid_text: list[str] | None = None  # the <line>s of the pyramid's text
        self.peer_text: list[str] | None = None  # the <line>s of the peer's text
        self.scus: list[Scu] = []
        self.peer_scus: list[Scu] = []
        self._in_annotation = False
        self._chars: list[str] | None = None
        self._current_text: list[str] | None = None
        self._scu: Scu | None = None
        self._contributor: Contributor | None = None

    # -- helpers
    def line(self) -> int:
        return self._parser.CurrentLineNumber or 0

    def fail(self, message: str) -> NoReturn:
        raise DucviewError(f"line {self.line()}: {message}")

    def required(self, name: str, attrs: dict[str, str], attr: str) -> str:
        value = attrs.get(attr)
        if value is None:
            self.fail(f"<{name}> has no {attr!r} attribute")
        return value

    def integer(self, name: str, attrs: dict[str, str], attr: str) -> int:
        value = self.required(name, attrs, attr)
        try:
            return int(value.strip())
        except ValueError:
            self.fail(f"<{name}> {attr}={value!r} is not a whole number")

    # -- events (the most frequent elements first)
    def start(self, name: str, attrs: dict[str, str]) -> None:
        if self.root is None:
            if name not in ("pyramid", "peerAnnotation"):
                self.fail(
                    f"expected <pyramid> or <peerAnnotation> as the root element, found <{name}>"
                )
            self.root = name
        if name == "part":
            if self._contributor is None:
                self.fail("<part> outside a <contributor>")
            try:  # int() ignores the blank space around a number, as strip() would
                part = Part(
                    int(attrs["start"]),
                    int(attrs["end"]),
                    attrs["label"],
                    self._parser.CurrentLineNumber,
                )
            except (KeyError, ValueError):
                part = Part(
                    start=self.integer(name, attrs, "start"),
                    end=self.integer(name, attrs, "end"),
                    label=self.required(name, attrs, "label"),
                )  # (a part that gets here is refused: the checks above say why)
            self._contributor.parts.append(part)
        elif name == "line" or name == "startDocumentRegEx":
            self._collect([])
        elif name == "contributor":
            if self._scu is None:
                self.fail("<contributor> outside an <scu>")
            self._contributor = Contributor(
                label=self.required(name, attrs, "label"),
                comment=attrs.get("comment"),
                line=self._parser.CurrentLineNumber,
            )
            self._scu.contributors.append(self._contributor)
        elif name == "scu" or name == "peerscu":
            self._scu = Scu(
                uid=self.integer(name, attrs, "uid"),
                label=self.required(name, attrs, "label"),
                comment=attrs.get("comment"),
                line=self._parser.CurrentLineNumber,
            )
            (self.peer_scus if name == "peerscu" else self.scus).append(self._scu)
        elif name == "annotation":
            self._in_annotation = True
        elif name == "text":
            lines: list[str] = []
            if self._in_annotation:
                self.peer_text = lines
            else:
                self.pyramid_text = lines
            self._current_text = lines

    def _collect(self, chars: list[str] | None) -> None:
        """Collect the character data into `chars` (None: let it go). Only a <line>'s and the
        regex's text is wanted: expat hands nothing else to Python (the blank space between
        elements is most of its calls)."""
        self._chars = chars
        self._parser.CharacterDataHandler = None if chars is None else chars.append

    def end(self, name: str) -> None:
        if name == "part":
            return
        if name == "line":
            if self._current_text is None:
                self.fail("<line> outside a <text>")
            assert self._chars is not None  # start began collecting them
            self._current_text.append("".join(self._chars))
            self._collect(None)
        elif name == "contributor":
            assert self._contributor is not None  # start made it (or failed)
            if not self._contributor.parts:
                self.fail("<contributor> has no <part>")
            self._contributor = None
        elif name == "scu" or name == "peerscu":
            self._scu = None
        elif name == "startDocumentRegEx":
            assert self._chars is not None
            self.regex = "".join(self._chars)
            self._collect(None)
        elif name == "text":
            self._current_text = None
        elif name == "annotation":
            self._in_annotation = False


BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
DECLARED_ENCODING = re.compile(rb"""\A<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def as_utf8(data: bytes) -> bytes:
    """The file's bytes as UTF-8 XML: a text with a byte-order mark (UTF-16, UTF-32, UTF-8) is
    re-encoded; a file that declares no encoding must be UTF-8, as XML says and DUCView writes it.

    An undeclared Latin-1 (or Windows-1252) file is the usual culprit; it is refused with the
    byte, line and column, rather than the parser's "not well-formed (invalid token)".
    """
    for bom, codec in BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as exc:
                raise DucviewError(
                    f"encoding problem: the file starts with a {codec} byte-order mark but is not "
                    f"{codec} ({exc.reason})"
                ) from None
            text = text.lstrip("\ufeff")
            # The declaration named the encoding of the bytes we just decoded; they are UTF-8 now.
            return re.sub(
                r"""\A(<\?xml[^>]*?)\s+encoding\s*=\s*["'][^"']*["']""", r"\1", text
            ).encode("utf-8")
    declared = DECLARED_ENCODING.match(data.lstrip())
    if declared and declared.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return data  # the parser decodes the declared encoding
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise DucviewError(
            f"line {line}, column {column}: encoding problem: byte 0x{data[exc.start]:02X} is "
            "not UTF-8 and the file declares no other encoding (it looks like Latin-1 or "
            "Windows-1252); save it as UTF-8, or add "
            '<?xml version="1.0" encoding="ISO-8859-1"?> as its first line'
        ) from None
    return data


def _refuse_entity(
    name: str,
    is_parameter_entity: bool,
    value: str | None,
    base: str | None,
    sysid: str | None,
    pubid: str | None,
    notation_name: str | None,
) -> NoReturn:
    raise EntitiesForbidden(name, value, base, sysid, pubid, notation_name)


def _refuse_unparsed_entity(
    name: str, base: str | None, sysid: str | None, pubid: str | None, notation_name: str | None
) -> NoReturn:
    raise EntitiesForbidden(name, None, base, sysid, pubid, notation_name)


def _refuse_external(context: str, base: str | None, sysid: str | None, pubid: str | None) -> int:
    raise ExternalReferenceForbidden(context, base, sysid, pubid)


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _parse(data: bytes) -> _Builder:
    """The file parsed by expat with defusedxml's protections (as defusedxml.sax set them up):
    entity declarations (the "billion laughs" bomb) and external references, an external DTD
    included, are refused; a DTD without them is read. `data` as `as_utf8` gives it."""
    if not data.strip():
        raise DucviewError("the file is empty")
    parser = expat.ParserCreate()
    parser.buffer_text = True  # a run of text in one call, not one per line break or entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE)
    parser.EntityDeclHandler = _refuse_entity
    parser.UnparsedEntityDeclHandler = _refuse_unparsed_entity
    parser.ExternalEntityRefHandler = _refuse_external
    builder = _Builder(parser)
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    try:
        parser.Parse(data, True)
    except DefusedXmlException as exc:
        raise DucviewError(f"refused unsafe XML ({type(exc).__name__}): {exc}") from None
    except expat.ExpatError as exc:
        raise DucviewError(
            f"line {exc.lineno}, column {exc.offset}: malformed XML: {expat.ErrorString(exc.code)}"
        ) from None
    return builder


def _convert_offsets(scus: list[Scu], text: str, where: str) -> None:
    """UTF-16 offsets to code points, refusing parts that lie outside the text.

    A part whose end is at or before its start (DUCView opens and scores such files) is kept,
    marked `inverted`, for the importer to re-anchor."""
    offsets = OffsetMap(text)
    utf16_length = offsets.to_utf16(len(text))
    for scu in scus:
        for contributor in scu.contributors:
            for part in contributor.parts:
                if not (0 <= part.start <= utf16_length and 0 <= part.end <= utf16_length):
                    raise DucviewError(
                        f"line {part.line}: part {part.start}-{part.end} of SCU {scu.uid} lies "
                        f"outside the {where} text ({utf16_length} characters)"
                    )
                part.inverted = part.end <= part.start
                part.start = offsets.to_code_points(part.start)
                part.end = offsets.to_code_points(part.end)


def _pyramid(handler: _Builder) -> PyramidDocument:
    if handler.pyramid_text is None:
        raise DucviewError("the pyramid has no <text>")
    text = _text(handler.pyramid_text)
    uids = set()
    for scu in handler.scus:
        if scu.uid in uids:
            raise DucviewError(f"line {scu.line}: SCU uid {scu.uid} appears twice in the pyramid")
        uids.add(scu.uid)
        if not scu.contributors:
            raise DucviewError(f"line {scu.line}: SCU {scu.uid} has no contributor")
    _convert_offsets(handler.scus, text, "pyramid")
    return PyramidDocument(text=text, start_document_regex=handler.regex, scus=handler.scus)


def read_pyramid(data: bytes) -> PyramidDocument:
    """Read a .pyr file (or refuse it with a DucviewError naming the line and the problem)."""
    handler = _parse(as_utf8(data))
    if handler.root != "pyramid":
        raise DucviewError(f"expected a pyramid (.pyr), found <{handler.root}>")
    return _pyramid(handler)


def _peer_annotation(
    handler: _Builder, pyramid: PyramidDocument | None = None
) -> PeerAnnotationDocument:
    """The peer annotation read; `pyramid`: its embedded pyramid, where read from another file
    (`read_any`'s `embedded`)."""
    pyramid = pyramid or _pyramid(handler)
    if handler.peer_text is None:
        raise DucviewError("the peer annotation has no <annotation><text>")
    text = _text(handler.peer_text)
    known = {scu.uid for scu in pyramid.scus} | {NON_MATCHING_UID}
    for peer_scu in handler.peer_scus:
        if peer_scu.uid not in known:
            raise DucviewError(
                f'line {peer_scu.line}: <peerscu uid="{peer_scu.uid}"> names an SCU the pyramid '
                "does not have"
            )
    _convert_offsets(handler.peer_scus, text, "peer")
    return PeerAnnotationDocument(pyramid=pyramid, text=text, peer_scus=handler.peer_scus)


def read_peer_annotation(data: bytes) -> PeerAnnotationDocument:
    """Read a .pan file: the embedded pyramid, the peer text and its PSEs per SCU."""
    handler = _parse(as_utf8(data))
    if handler.root != "peerAnnotation":
        raise DucviewError(f"expected a peer annotation (.pan), found <{handler.root}>")
    return _peer_annotation(handler)


# A .pan's embedded pyramid, by the line it starts on and a digest of its bytes.
EmbeddedKey = tuple[int, bytes]  # PyramidDocument.embedded_key
EMBEDDED = re.compile(rb"<pyramid>.*?</pyramid>", re.DOTALL)


def read_any(
    data: bytes, embedded: dict[EmbeddedKey, PyramidDocument] | None = None
) -> PyramidDocument | PeerAnnotationDocument:
    """Read a .pyr or a .pan file, whichever it is (parsed once).

    `embedded`: the pyramids embedded in the .pan files read before (kept there by this call). A
    .pan whose embedded pyramid is byte for byte one of them, on the same lines, gets that
    pyramid's document, and only its annotation is parsed (issue 33: NIST's packages repeat a
    docset's pyramid in each of its .pan files, and its thousands of elements were most of an
    import's parse). The pyramid's place keeps its line breaks, so that every line of the rest
    is where it was. The documents are read, never changed: they can be shared."""
    data = as_utf8(data)
    found = EMBEDDED.search(data) if embedded is not None else None
    key = None
    if found is not None and embedded is not None:
        line = data.count(b"\n", 0, found.start()) + 1
        key = (line, hashlib.blake2b(found.group(), digest_size=16).digest())
        pyramid = embedded.get(key)
        if pyramid is not None:
            breaks = b"\n" * found.group().count(b"\n")
            rest = (
                data[: found.start()] + b"<pyramid>" + breaks + b"</pyramid>" + data[found.end() :]
            )
            handler = _parse(rest)
            if handler.root == "peerAnnotation":
                return _peer_annotation(handler, pyramid)
    handler = _parse(data)
    if handler.root == "pyramid":
        return _pyramid(handler)
    document = _peer_annotation(handler)
    if key is not None and embedded is not None:
        document.pyramid.embedded_key = key
        embedded[key] = document.pyramid
    return document
