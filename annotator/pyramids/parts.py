"""Every contributor part of a pyramid, read once for all that shows them.

The builder's page and each edit's answer show the models shaded by SCU, the SCUs' contributors,
the pyramid's problems and the builder's help; each read every part of the pyramid in a query of
its own (three reads of the same rows per action, issue 32). They now take these rows, read once.
"""

from __future__ import annotations

from typing import NamedTuple

from annotator.models import Span


class Part(NamedTuple):
    """A contributor's part (a Span) with its contributor and SCU, as plain values."""

    id: int
    summary_id: int
    start: int
    end: int
    position: int  # within its contributor
    contributor_id: int
    contributor_position: int
    contributor_summary_id: int
    contributor_comment: str
    contributor_author: str  # the author of the model the contributor is of
    author: str  # the author of the model the part is in
    scu_id: int
    scu_uid: int
    scu_label: str
    scu_position: int


def pyramid_parts(pyramid_id: int) -> list[Part]:
    """Every part of the pyramid's contributors, in one query, in the order the SCU list shows
    them (contributor by contributor, each one's parts in text order)."""
    rows = (
        Span.objects.filter(contributor__scu__pyramid_id=pyramid_id)
        .order_by("contributor__position", "contributor_id", "start", "id")
        .values_list(
            "id",
            "summary_id",
            "start",
            "end",
            "position",
            "contributor_id",
            "contributor__position",
            "contributor__summary_id",
            "contributor__comment",
            "contributor__summary__author",
            "summary__author",
            "contributor__scu_id",
            "contributor__scu__uid",
            "contributor__scu__label",
            "contributor__scu__position",
        )
    )
    return [Part(*row) for row in rows]
