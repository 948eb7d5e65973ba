"""Sorting names as people read them: peer "2" before peer "10" (DUC numbers its systems)."""

from __future__ import annotations

import re

_PIECES = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key that orders the runs of digits in `name` by their value: "peer 2 against D0601"
    before "peer 10 against D0601", and a name with digits before a letter-only one ("14" < "A")."""
    return tuple(
        (0, int(piece), piece) if piece.isdigit() else (1, 0, piece.lower())
        for piece in _PIECES.split(name)
        if piece
    )
