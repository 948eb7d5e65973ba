"""/guide/: the user guide, as `build_guide` wrote it into GUIDE_ROOT (MkDocs, from docs/).

Served by the app itself, so that it works offline and wherever the app runs (the guide asks no
other site for anything: no web fonts, no CDN). No login: it is the manual, not anyone's data, and
the log-in page links to it. A folder's index.html answers for the folder; a name outside the guide,
or a hidden file (the build's hash), answers 404 with a page of ours that links back to the
guide's start (MkDocs' own 404 page links from the site's root, not from /guide/). The two small
scripts MkDocs' theme writes into each page are allowed by their hashes, nothing else inline.
"""

import base64
import hashlib
import mimetypes
import re
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils._os import safe_join
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)


def _inline_script_hashes(html: bytes) -> list[str]:
    """The CSP source of each inline script of a page ('sha256-…'), so that only those run."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
        for body in INLINE_SCRIPT.findall(html)
    ]


def _file(root: Path, path: str) -> Path | None:
    if any(part.startswith(".") for part in path.split("/")):
        return None  # the build's own files (.sources-sha256), and no way up
    try:
        target = Path(safe_join(root, path))
    except Exception:  # SuspiciousFileOperation: a path that leaves the guide
        return None
    if target.is_dir():
        target = target / "index.html"
    return target if target.is_file() else None


@require_safe
@cache_control(public=True, max_age=300)
def guide(request, path: str = ""):
    root = Path(settings.GUIDE_ROOT)
    if not (root / "index.html").is_file():
        return render(request, "web/guide_not_built.html", status=404)
    target = _file(root, path)
    if target is None:
        return render(request, "web/guide_not_found.html", {"path": path}, status=404)
    if (
        path
        and not path.endswith("/")
        and target.name == "index.html"
        and not path.endswith("index.html")
    ):
        # A folder named without its slash: the page's relative links need it.
        return HttpResponseRedirect(request.path + "/")
    if target.suffix == ".html":
        return _html(target.read_bytes())
    content_type, encoding = mimetypes.guess_type(target.name)
    if encoding:  # sitemap.xml.gz: a file to download, not an answer to decompress
        content_type = "application/gzip"
    return FileResponse(target.open("rb"), content_type=content_type or "application/octet-stream")


def _html(body: bytes, status: int = 200) -> HttpResponse:
    response = HttpResponse(body, content_type="text/html; charset=utf-8", status=status)
    hashes = _inline_script_hashes(body)
    if hashes:
        response._csp_update = {"script-src": hashes}  # type: ignore[attr-defined]
    return response
