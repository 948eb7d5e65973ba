"""Every contributor part and SCU label of a pyramid, read once for all that shows them.

The builder's page and each edit's answer show the models shaded by SCU, the SCUs' contributors,
the pyramid's problems and the builder's help; each read every part of the pyramid in a query of
its own (three reads of the same rows per action, issue 32), and the SCUs' labels and number in
two more. They now take them from one PyramidRows, made once the edit is in.
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from annotator.pyramids.models import SCU, Span


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


class PyramidRows:
    """A pyramid's parts and SCU labels, each read at most once, when first asked. Made for one
    page or one edit's answer, after the edit: the rows are as the edit left them."""

    def __init__(self, pyramid_id: int):
        self.pyramid_id = pyramid_id

    @cached_property
    def parts(self) -> list[Part]:
        return pyramid_parts(self.pyramid_id)

    @cached_property
    def labels(self) -> dict[int, str]:
        """Every SCU's label by uid, in the SCU list's order."""
        return dict(
            SCU.objects.filter(pyramid_id=self.pyramid_id)
            .order_by("position", "uid")
            .values_list("uid", "label")
        )
