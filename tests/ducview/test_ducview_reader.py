"""Reading DUCView files: structure, UTF-16 offsets, and refusing bad input with a clear message."""

import pytest

from annotator.ducview import DucviewError
from annotator.ducview.offsets import OffsetMap
from annotator.ducview.reader import read_any, read_peer_annotation, read_pyramid
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE

MINIMAL = b"""<?xml version="1.0"?>
<pyramid>
 <text>
  <line>Alpha beta.</line>
 </text>
 <scu uid="1" label="Alpha">
  <contributor label="Alpha">
   <part label="Alpha" start="0" end="5"/>
  </contributor>
 </scu>
</pyramid>
"""


def test_reads_the_pyramid_structure():
    pyramid = read_pyramid(PYRAMID_FIXTURE.read_bytes())
    assert [scu.uid for scu in pyramid.scus] == [11, 12, 13, 14, 15]
    assert pyramid.scus[1].comment == 'Height & "size"'
    assert pyramid.start_document_regex.startswith("[-]*\\nD[0-9]*")
    # A discontinuous contributor keeps its parts in DUCView's (insertion) order.
    parts = pyramid.scus[0].contributors[2].parts
    assert [p.label for p in parts] == [
        "finishing it in 1889 for a world fair",
        "Eiffel's firm built the tower",
    ]
    assert pyramid.text.startswith("#3\n\n\n---------------\nD9901.M.100.A.A\n")


def test_offsets_become_code_points_past_a_character_outside_the_bmp():
    pyramid = read_pyramid(PYRAMID_FIXTURE.read_bytes())
    for scu in pyramid.scus:
        for contributor in scu.contributors:
            for part in contributor.parts:
                assert pyramid.text[part.start : part.end] == part.label
    emoji_part = pyramid.scus[4].contributors[0].parts[0]
    assert emoji_part.label.endswith("\U0001f600")


def test_reads_a_peer_annotation_with_non_matching_pses():
    annotation = read_peer_annotation(PAN_FIXTURE.read_bytes())
    by_uid = {scu.uid: scu for scu in annotation.peer_scus}
    assert len(by_uid[12].contributors) == 2
    assert [c.parts[0].label for c in by_uid[0].contributors] == ["Tourists climb it every day"]
    assert annotation.text.startswith("\U0001f600 The Eiffel Tower")
    part = by_uid[11].contributors[0].parts[0]
    assert annotation.text[part.start : part.end] == "opened in 1889 for the World's Fair"


def test_offset_map_round_trips_every_position():
    text = "a\U0001f600b\U0001f600\U0001f600c"
    offsets = OffsetMap(text)
    for i in range(len(text) + 1):
        utf16 = len(text[:i].encode("utf-16-le")) // 2
        assert offsets.to_utf16(i) == utf16
        assert offsets.to_code_points(utf16) == i


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b"   \n", "the file is empty"),
        (b"this is not XML at all", "malformed XML"),
        (b"<pyramid><text><line>x</line></text>", "malformed XML"),
        (
            b'<?xml version="1.0"?>\n<!DOCTYPE pyramid [\n <!ENTITY a "aaaaaaaaaa">\n'
            b' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n'
            b' <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n'
            b"<pyramid><text><line>&c;</line></text></pyramid>",
            "refused unsafe XML",
        ),
        (MINIMAL.replace(b'end="5"', b'end="500"'), "lies outside the pyramid text"),
        (MINIMAL.replace(b'start="0"', b'start="-1"'), "lies outside the pyramid text"),
        (MINIMAL.replace(b'start="0"', b'start="zero"'), "start='zero' is not a whole number"),
        (MINIMAL.replace(b' start="0"', b""), "has no 'start' attribute"),
        (
            MINIMAL.replace(b"<pyramid>", b"<summary>").replace(b"</pyramid>", b"</summary>"),
            "found <summary>",
        ),
        (
            MINIMAL.replace(
                b' <scu uid="1" label="Alpha">',
                b' <scu uid="1" label="Alpha"></scu><scu uid="1" label="B">',
            ),
            "has no contributor",
        ),
    ],
)
def test_bad_files_are_refused_with_a_message_naming_the_problem(data, message):
    with pytest.raises(DucviewError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_any(data)


def test_messages_name_the_line():
    with pytest.raises(DucviewError, match=r"^line 8: part 0-500"):
        read_pyramid(MINIMAL.replace(b'end="5"', b'end="500"'))


def test_a_peer_scu_naming_an_scu_the_pyramid_lacks_is_refused():
    data = PAN_FIXTURE.read_bytes().replace(b'<peerscu uid="13"', b'<peerscu uid="99"')
    with pytest.raises(
        DucviewError, match=r'line \d+: <peerscu uid="99"> names an SCU the pyramid does not have'
    ):
        read_peer_annotation(data)


def test_a_pyramid_is_not_read_as_a_peer_annotation():
    with pytest.raises(DucviewError, match=r"expected a peer annotation \(.pan\)"):
        read_peer_annotation(PYRAMID_FIXTURE.read_bytes())


def test_a_part_whose_end_lies_before_its_start_is_kept_and_marked_for_re_anchoring():
    # DUCView 1.4 opens and scores such files (a NIST .pyr has start="368" end="367").
    pyramid = read_pyramid(MINIMAL.replace(b'start="0" end="5"', b'start="5" end="4"'))
    part = pyramid.scus[0].contributors[0].parts[0]
    assert (part.start, part.end, part.inverted, part.label) == (5, 4, True, "Alpha")
    assert read_pyramid(MINIMAL).scus[0].contributors[0].parts[0].inverted is False


def test_an_undeclared_latin_1_file_is_refused_as_an_encoding_problem_naming_line_and_column():
    data = MINIMAL.replace(b"Alpha beta.", "Alpha bêta.".encode("latin-1"))
    with pytest.raises(
        DucviewError, match=r"^line 4, column 16: encoding problem: byte 0xEA is not UTF-8"
    ) as error:
        read_pyramid(data)
    assert "invalid token" not in str(error.value)


def test_a_declared_latin_1_file_is_read():
    data = MINIMAL.replace(b'<?xml version="1.0"?>', b'<?xml version="1.0" encoding="ISO-8859-1"?>')
    data = data.replace(b"Alpha beta.", "Alpha bêta.".encode("latin-1"))
    assert read_pyramid(data).text == "Alpha bêta.\n"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_a_text_with_a_byte_order_mark_is_read_whatever_its_declaration(codec):
    text = MINIMAL.decode().replace(
        '<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>'
    )
    data = text.replace("Alpha beta.", "Alpha bêta \U0001f600.").encode(codec)
    if codec == "utf-16-be":
        data = b"\xfe\xff" + data
    pyramid = read_pyramid(data)
    assert pyramid.text == "Alpha bêta \U0001f600.\n"
    assert pyramid.text[0:5] == "Alpha"


# -- the parser: expat driven directly, with defusedxml's protections (issue 19) -------------------


def test_a_line_keeps_its_text_exactly_whatever_xml_writes_it_with():
    # Character references, predefined entities, CDATA and a line break written \r\n inside a
    # <line> (XML makes it \n): the text, and so every offset into it, is what DUCView reads.
    data = MINIMAL.replace(
        b"<line>Alpha beta.</line>",
        b"<line>Alpha &amp; &#946;<![CDATA[ <b>\r\n ]]>&lt;x&gt;</line><line></line><line> </line>",
    )
    assert read_pyramid(data).text == "Alpha & \u03b2 <b>\n <x>\n\n \n"


def test_blank_space_between_elements_is_not_text_and_a_regex_is_read_whole():
    data = MINIMAL.replace(
        b" <text>", b" <startDocumentRegEx>[-]*\\nD[0-9]*&amp;x</startDocumentRegEx>\n <text>"
    )
    pyramid = read_pyramid(data)
    assert pyramid.start_document_regex == "[-]*\\nD[0-9]*&x"
    assert pyramid.text == "Alpha beta.\n"


@pytest.mark.parametrize(
    ("doctype", "refusal"),
    [
        (b'<!DOCTYPE pyramid SYSTEM "http://example.org/p.dtd">', "ExternalReferenceForbidden"),
        (b'<!DOCTYPE pyramid [<!ENTITY e SYSTEM "file:///etc/passwd">]>', "EntitiesForbidden"),
        (b'<!DOCTYPE pyramid [<!ENTITY e SYSTEM "x" NDATA gif>]>', "EntitiesForbidden"),
    ],
)
def test_external_references_and_entity_declarations_are_refused(doctype, refusal):
    data = MINIMAL.replace(b"<pyramid>", doctype + b"\n<pyramid>")
    with pytest.raises(DucviewError, match=rf"^refused unsafe XML \({refusal}\)"):
        read_pyramid(data)


def test_a_dtd_without_entities_is_read():
    data = MINIMAL.replace(b"<pyramid>", b"<!DOCTYPE pyramid [<!ELEMENT pyramid ANY>]>\n<pyramid>")
    assert read_pyramid(data).text == "Alpha beta.\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ((b'<part label="Alpha"', b'<part label="Alpha" '), None),
        ((b' start="0"', b' start=" 0 "'), None),  # blank space around a number is allowed
        ((b' end="5"', b""), r"^line 8: <part> has no 'end' attribute"),
        ((b' label="Alpha" start', b" start"), r"^line 8: <part> has no 'label' attribute"),
        ((b'end="5"', b'end="5.0"'), r"^line 8: <part> end='5.0' is not a whole number"),
        ((b"<contributor", b"<part/><contributor"), r"^line 7: <part> outside a <contributor>"),
        ((b"</pyramid>", b"<line>x</line></pyramid>"), r"^line 11: <line> outside a <text>"),
        ((b"<pyramid>", b"<part/>"), r"^line 2: expected <pyramid> or <peerAnnotation>"),
        ((b"Alpha beta.", b"Alpha & beta."), r"^line 4, column 15: malformed XML: not well-formed"),
    ],
)
def test_what_the_parser_reports_names_the_line(change, message):
    data = MINIMAL.replace(*change)
    assert data != MINIMAL
    if message is None:
        assert read_pyramid(data).scus[0].contributors[0].parts[0].start == 0
    else:
        with pytest.raises(DucviewError, match=message):
            read_pyramid(data)


def test_a_pans_embedded_pyramid_met_again_is_not_parsed_again():
    """Issue 33: NIST's packages repeat a docset's pyramid in each .pan; a copy byte for byte the
    same, on the same lines, is read once and shared; any other is read anew."""
    from annotator.ducview.reader import read_any

    data = PAN_FIXTURE.read_bytes()
    embedded: dict = {}
    first = read_any(data, embedded)
    again = read_any(data.replace(b"</annotation>", b"</annotation>\n"), embedded)
    assert again.pyramid is first.pyramid
    assert again == read_any(data)  # the same document as a fresh parse, lines included
    assert len(embedded) == 1
    changed = data.replace(b'label="The tower was built', b'label="The tower was made', 1)
    assert read_any(changed, embedded).pyramid is not first.pyramid
    moved = data.replace(b"<pyramid>", b"\n<pyramid>", 1)  # one line further down
    reread = read_any(moved, embedded)
    assert reread.pyramid is not first.pyramid
    assert reread.pyramid.scus[0].line == first.pyramid.scus[0].line + 1
    assert len(embedded) == 3
