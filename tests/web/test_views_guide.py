"""/guide/: the user guide as build_guide wrote it, served to anyone (it is the manual), each
page's Guide link to a section that exists, nothing outside the guide's folder, and only the
theme's own inline scripts allowed (by their hashes)."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.loader import get_template

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
# Pages with no section of their own: the error pages and the log-in pages open the guide's start.
WITHOUT_SECTION = {
    "400.html",
    "403.html",
    "404.html",
    "web/guide_not_built.html",
    "web/guide_not_found.html",
}
SECTION = re.compile(r"\{% block guide_section %\}(.*?)\{% endblock %\}")


@pytest.fixture
def guide_root(built_guide, settings):
    settings.GUIDE_ROOT = built_guide
    return built_guide


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(value for name, value in attrs if name == "id")


def ids_of(page: Path) -> set[str]:
    parser = Ids()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.ids


def test_the_guide_is_served_without_login_and_its_inline_scripts_allowed_by_hash(
    client, guide_root
):
    response = client.get("/guide/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    body = response.content.decode()
    assert "<title>Pyramid annotator</title>" in body
    assert 'href="annotator/"' in body  # the annotator's guide in the navigation
    policy = response["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]*)", policy).group(1).split()
    hashes = [source for source in script_src if source.startswith("'sha256-")]
    assert len(hashes) == body.count("<script>") >= 1
    assert "'unsafe-inline'" not in policy
    assert "max-age=300" in response["Cache-Control"]
    assert "sessionid" not in response.cookies


def test_a_page_a_folder_without_its_slash_and_an_asset(client, guide_root):
    page = client.get("/guide/annotator/builder/")
    assert page.status_code == 200
    assert "The pyramid builder" in page.content.decode()
    assert 'src="../../img/builder.png"' in page.content.decode()
    redirect = client.get("/guide/annotator/builder")
    assert redirect.status_code == 302
    assert redirect["Location"] == "/guide/annotator/builder/"
    picture = client.get("/guide/img/builder.png")
    assert picture.status_code == 200
    assert picture["Content-Type"] == "image/png"
    assert b"".join(picture.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"
    script = next((guide_root / "assets" / "javascripts").glob("bundle.*.min.js"))
    answer = client.get(f"/guide/assets/javascripts/{script.name}")
    assert answer.status_code == 200
    assert answer["Content-Type"] in {"text/javascript", "application/javascript"}


@pytest.mark.parametrize(
    "path",
    [
        "nothing-here/",
        "../config/settings.py",
        "..%2F..%2Fmanage.py",
        "%2Fetc%2Fpasswd",
        "x/../../",
    ],
)
def test_a_name_outside_the_guide_answers_404_with_a_way_back(client, guide_root, path):
    response = client.get(f"/guide/{path}")
    assert response.status_code == 404
    assert b"The guide has no such page" in response.content
    assert b'href="/guide/"' in response.content
    assert b"SECRET_KEY" not in response.content
    assert b"root:" not in response.content


def test_only_reading(client, guide_root):
    assert client.post("/guide/").status_code == 405
    assert client.head("/guide/").status_code == 200


def test_a_guide_not_built_says_how_to_build_it(client, settings, tmp_path):
    settings.GUIDE_ROOT = tmp_path / "not-built"
    response = client.get("/guide/annotator/")
    assert response.status_code == 404
    assert "python manage.py build_guide" in response.content.decode()


def test_every_page_names_a_section_of_the_guide_that_exists(guide_root):
    pages = [
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*.html")
        if '{% extends "base.html" %}' in path.read_text(encoding="utf-8")
    ]
    assert len(pages) >= 40
    missing, broken = [], []
    for name in pages:
        source = (TEMPLATES / name).read_text(encoding="utf-8")
        sections = SECTION.findall(source)
        if not sections:
            if name not in WITHOUT_SECTION and not name.startswith("registration/"):
                missing.append(name)
            continue
        page, _, anchor = sections[0].partition("#")
        target = guide_root / page / "index.html"
        if not target.is_file() or (anchor and anchor not in ids_of(target)):
            broken.append(f"{name}: {sections[0]}")
        get_template(name)  # and the template still compiles
    assert not missing, f"pages naming no section of the guide: {missing}"
    assert not broken, f"sections the guide does not have: {broken}"


def test_the_help_of_each_annotation_page_links_to_its_page_of_the_guide(guide_root):
    for template, section in [
        ("pyramids/pyramid_detail.html", "annotator/builder/"),
        ("peer_annotation/annotation_detail.html", "annotator/peer/"),
        ("coverage/judging.html", "annotator/judging/"),
    ]:
        source = (TEMPLATES / template).read_text(encoding="utf-8")
        assert f'{{% url \'guide\' %}}{section}" target="_blank"' in source, template
        assert (guide_root / section / "index.html").is_file()


KEY_ROW = re.compile(r"<tr><th>(.*?)</th>")


@pytest.mark.parametrize(
    ("template", "page"),
    [
        ("pyramids/pyramid_detail.html", "annotator/builder.md"),
        ("peer_annotation/annotation_detail.html", "annotator/peer.md"),
    ],
)
def test_every_key_of_a_pages_help_is_in_its_page_of_the_guide(template, page):
    """The `?` help and the guide list the same keys (a tester found six missing from the guide)."""
    help_dialog = (TEMPLATES / template).read_text(encoding="utf-8").split('<dialog id="help"')[1]
    keys = [
        key.strip()
        for row in KEY_ROW.findall(help_dialog.split("</dialog>")[0])
        for key in row.split(", ")
    ]
    assert len(keys) >= 12
    guide = (ROOT / "docs" / page).read_text(encoding="utf-8")
    missing = [key for key in keys if f"`{key}`" not in guide]
    assert not missing, f"keys of {template}'s help that {page} does not list: {missing}"
