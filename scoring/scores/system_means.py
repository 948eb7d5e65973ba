"""Each system's mean scores over a collection (the scores page's systems view), kept per
collection and choice of what counts, so that a view reads one row (issue 32: at 50 DUC years the
database averaged 23,000 annotations for every view, 80 ms, growing with the collection).

The means are those of scoring.scores.score_table.current_system_means
(scoring.scores.tables.system_means:
a docset's annotations of a peer averaged first). They are kept with a fingerprint of everything
they depend on, read in two aggregate queries: the collection's annotations and pyramids
(how many, which, their versions — every edit raises a version —, their latest change and which are
submitted) and its conventions. Any edit, import, deletion, submission or merge changes it; then
the means are computed again and kept.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict

from django.db.models import Case, Count, F, IntegerField, Max, Sum, When
from django_tasks import task

from annotator.campaigns.models import Collection
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid
from scoring.models import StoredSystemMeans
from scoring.scores.records import collection_annotations, counted_annotations
from scoring.scores.score_table import current_system_means
from scoring.scores.tables import SUBMITTED, SystemMean


def collection_fingerprint(collection: Collection) -> str:
    """A digest of what the collection's system means depend on (two queries)."""

    def state(records) -> dict:
        return records.aggregate(
            count=Count("pk"),
            ids=Sum("pk"),
            versions=Sum("version"),
            latest=Max("updated_at"),
            submitted=Sum(
                Case(When(status=SUBMITTED, then=F("pk")), default=0, output_field=IntegerField())
            ),
        )

    facts = {
        "annotations": state(PeerAnnotation.objects.filter(pyramid__docset__collection=collection)),
        "pyramids": state(Pyramid.objects.filter(docset__collection=collection)),
        "conventions": [collection.weight_convention, collection.average_rounding],
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()


def kept_system_means(
    collection: Collection, adjudicated: bool = False, include_in_progress: bool = False
) -> tuple[list[SystemMean], dict[str, int]]:
    """The collection's system means and its counted annotations by status, as
    `current_system_means` gives them for `counted_annotations(..., adjudicated,
    include_in_progress)`: the kept ones while current, else computed and kept."""
    fingerprint = collection_fingerprint(collection)
    kept = (
        StoredSystemMeans.objects.filter(
            collection=collection,
            adjudicated=adjudicated,
            include_in_progress=include_in_progress,
        )
        .values_list("fingerprint", "means", "by_status")
        .first()
    )
    if kept is not None and kept[0] == fingerprint:
        return [SystemMean(**mean) for mean in kept[1]], kept[2]
    counted = counted_annotations(
        collection_annotations(collection), adjudicated, include_in_progress=include_in_progress
    )
    means, by_status = current_system_means(counted)
    # Kept under the fingerprint read before the means: an edit meanwhile makes it stale at once.
    # Two views computing at once: the last one written wins, both current.
    StoredSystemMeans.objects.bulk_create(
        [
            StoredSystemMeans(
                collection=collection,
                adjudicated=adjudicated,
                include_in_progress=include_in_progress,
                fingerprint=fingerprint,
                means=[asdict(mean) for mean in means],
                by_status=by_status,
            )
        ],
        update_conflicts=True,
        unique_fields=["collection", "adjudicated", "include_in_progress"],
        update_fields=["fingerprint", "means", "by_status", "computed_at"],
    )
    return means, by_status


@task()
def keep_system_means(collection_id: int) -> int:
    """Keep a collection's system means as the scores page shows them first (submitted work, not
    adjudicated) current, after an import (scoring.apps); return how many systems."""
    collection = Collection.objects.filter(pk=collection_id).first()
    if collection is None:  # deleted meanwhile
        return 0
    return len(kept_system_means(collection)[0])
