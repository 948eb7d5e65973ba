"""Loading the suggestions' rankers before a server's first request (issue 32: the first
suggestion a gunicorn worker gave took 0.9-2.6 s, most of it WordLlama's model and BM25's
libraries loading; the later ones took milliseconds). config/gunicorn.py calls `warm_up` in each
worker once Django is set up; the pyramids' prepared indexes are shared between workers and
servers through Django's cache (settings.CACHES: the database's, on PostgreSQL)."""

from __future__ import annotations


def warm_up() -> list[str]:
    """Load what ranking needs (the semantic model where the extra is installed, BM25, the
    stemmer), by ranking a phrase once with each ranker the site uses; what was loaded, named."""
    from annotator.assist import rankers, semantic

    loaded = []
    scus = [rankers.ScuTexts(1, "Warming up the rankers", 1, ("the rankers warm up",))]
    for name in ("lexical", *(["semantic"] if semantic.available() else [])):
        rankers.rank(rankers.prepare(scus, name), "warm rankers")
        loaded.append(name)
    return loaded
