"""Loading the suggestions' rankers before a server's first request (issue 32: the first
suggestion a gunicorn worker gave took 0.9-2.6 s, most of it WordLlama's model and BM25's
libraries loading; the later ones took milliseconds). config/gunicorn.py calls `warm_up` in the
master, the application preloaded, before the workers are forked; the pyramids' prepared indexes
are shared between workers and servers through Django's cache (annotator.assist.caching)."""

from __future__ import annotations

# What a first request would otherwise load: the views (the URLconf imports them) and the
# templates the annotation pages and their answers render.
TEMPLATES = [
    "peer_annotation/annotation_detail.html",
    "peer_annotation/annotation/suggestions.html",
    "pyramids/pyramid_detail.html",
    "pyramids/workspace/changes.html",
    "pyramids/workspace/builder_help_list.html",
]


def warm_up() -> list[str]:
    """Load what ranking needs (the semantic model where the extra is installed, BM25, the
    stemmer), by ranking a phrase once with each ranker the site uses, and what a first request
    would load (the views, the pages' templates); what was loaded, named."""
    from django.template.loader import get_template
    from django.urls import get_resolver

    from annotator.assist import rankers, semantic

    get_resolver().url_patterns  # noqa: B018  (imports every view)
    for name in TEMPLATES:
        get_template(name)
    loaded = []
    scus = [rankers.ScuTexts(1, "Warming up the rankers", 1, ("the rankers warm up",))]
    for name in ("lexical", *(["semantic"] if semantic.available() else [])):
        rankers.rank(rankers.prepare(scus, name), "warm rankers")
        loaded.append(name)
    return loaded
