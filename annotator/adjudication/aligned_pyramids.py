"""Adjudication from the stored records (issue 8): pyramids of the same models aligned (two, or
more).

Loads each pyramid's contributor spans in one query and maps them onto the words of its model
summaries (models in the pyramid's order; texts that differ only in whitespace or separators align
by words, as for agreement), then hands the SCUs' word sets to annotator.adjudication.alignment.
"""

from __future__ import annotations

from collections import defaultdict

from annotator.adjudication.alignment import AlignedGroup, GroupOfMany, align, align_many
from annotator.pyramids.models import Pyramid, PyramidModel, Span
from annotator.text.words import word_scus, words


class NotComparable(ValueError):
    """The pyramids are not built from the same model summaries."""


def comparable_words(text: str) -> tuple[str, ...]:
    """A model summary's words as alignment compares them: pyramids whose models have the same
    words, in the same order, are comparable (whitespace, separators, case and authors' names
    aside: separate DUCView files of one docset name their models differently)."""
    return tuple(text[s:e].lower() for s, e in words(text))


def scu_words(pyramids: list[Pyramid]) -> list[dict[int, set[tuple[int, int]]]]:
    """For each pyramid, {SCU uid: the words (model position, word index) its contributors
    cover}."""
    ids = [p.pk for p in pyramids]
    models = defaultdict(list)
    for link in (
        PyramidModel.objects.filter(pyramid_id__in=ids)
        .select_related("summary")
        .order_by("pyramid_id", "position")
    ):
        models[link.pyramid_id].append(link.summary)
    texts = [[comparable_words(m.text) for m in models[p.pk]] for p in pyramids]
    if any(t != texts[0] for t in texts[1:]):
        raise NotComparable(
            "the pyramids are not built from the same model summaries (their words differ)"
        )
    spans = defaultdict(list)
    for pyramid_id, summary_id, start, end, uid in Span.objects.filter(
        contributor__scu__pyramid_id__in=ids
    ).values_list(
        "contributor__scu__pyramid_id", "summary_id", "start", "end", "contributor__scu__uid"
    ):
        spans[(pyramid_id, summary_id)].append((start, end, uid))
    result = []
    for pyramid in pyramids:
        covered = defaultdict(set)
        for position, model in enumerate(models[pyramid.pk]):
            for index, uids in enumerate(word_scus(model.text, spans[(pyramid.pk, model.pk)])):
                for uid in uids:
                    covered[uid].add((position, index))
        result.append(dict(covered))
    return result


def align_pyramids(a: Pyramid, b: Pyramid, min_share: float = 0.5) -> list[AlignedGroup]:
    words_a, words_b = scu_words([a, b])
    return align(words_a, words_b, min_share)


def align_many_pyramids(pyramids: list[Pyramid], min_share: float = 0.5) -> list[GroupOfMany]:
    """Two or more pyramids of the same models aligned at once (A, B, C, ... in this order)."""
    return align_many(scu_words(pyramids), min_share)
