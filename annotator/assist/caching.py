"""What the assistants prepare once and read many times (a pyramid's index for the suggestions,
its models' phrases for the builder's help): kept in this process and in Django's cache, which
every worker and app server shares on PostgreSQL (settings.CACHES), so that it is prepared once,
not once per worker (issue 32: a worker's first suggestion took 0.9-2.6 s). A key names what the
value is made of (a pyramid's version, its models' texts): a key's value never changes."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

CACHE_SECONDS = 24 * 3600  # a new version makes a new key; old ones just expire
RECENT: OrderedDict[str, Any] = OrderedDict()  # this process's last values, by key
RECENT_KEPT = 32


def shared(key: str, make: Callable[[], Any]) -> Any:
    """The value of `key`: this process's, else the shared cache's, else `make()`'s (then kept in
    both)."""
    from django.core.cache import cache

    value = RECENT.get(key)
    if value is not None:
        RECENT.move_to_end(key)
        return value
    value = cache.get(key)
    if value is None:
        value = make()
        cache.set(key, value, CACHE_SECONDS)
    RECENT[key] = value
    while len(RECENT) > RECENT_KEPT:
        RECENT.popitem(last=False)
    return value
