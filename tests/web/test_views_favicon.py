"""/favicon.ico (issue 17): browsers ask for it (on pages that name no icon: the Django admin, a
JSON answer opened in a tab); it answered 404. It is sent on to the icon among the static files, for
anyone, without a session; the pages name that icon and its SVG."""

import struct

from django.contrib.staticfiles import finders
from django.templatetags.static import static


def test_favicon_ico_is_sent_to_the_static_icon(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static("favicon.ico")
    assert "max-age=86400" in response["Cache-Control"]
    assert "public" in response["Cache-Control"]
    assert not response.cookies  # no session, no CSRF cookie: the icon is nobody's
    assert client.head("/favicon.ico").status_code == 302
    assert client.post("/favicon.ico").status_code == 405


def test_the_static_icons_are_an_ico_and_an_svg():
    ico = open(finders.find("favicon.ico"), "rb").read()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1)  # an icon file
    sizes = set()
    for i in range(count):
        width, height, _, _, _, _, length, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * i : 22 + 16 * i]
        )
        assert ico[offset : offset + 8] == b"\x89PNG\r\n\x1a\n"
        assert offset + length <= len(ico)
        sizes.add((width, height))
    assert sizes == {(16, 16), (32, 32), (48, 48)}
    svg = open(finders.find("favicon.svg"), encoding="utf-8").read()
    assert svg.startswith("<svg")
    assert 'viewBox="0 0 32 32"' in svg


def test_every_page_names_the_icons(client, demo):
    pages = ["/accounts/login/", "/"]
    client.force_login(demo["admin"])
    pages += ["/collections/", "/api/docs/", "/api/redoc/"]
    for url in pages:
        page = client.get(url).content.decode()
        assert f'<link rel="icon" href="{static("favicon.ico")}"' in page, url
        assert f'<link rel="icon" href="{static("favicon.svg")}" type="image/svg+xml">' in page, url
        assert 'href="data:,"' not in page, url


def test_the_plain_error_pages_name_the_icons_by_their_unhashed_names():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    for name in ("500.html", "503.html"):
        text = (root / name).read_text()
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in text, name
        assert '<link rel="icon" href="/static/favicon.ico"' in text, name
