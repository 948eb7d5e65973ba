"""A collection grown by copies of its own records, in SQL, for bench/scale.py.

Copy k of a row is the row with its id, and every foreign key into a copied table, shifted by k
times the table's largest seed id: one INSERT ... SELECT per table makes all the copies at once,
whatever columns the models have today (they are read from the models), and the copies are as
valid as the seed (the database's constraints and triggers check them as they are inserted).
Docsets are renamed ("D0601-2"); users and the collection are shared by every copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection, models
from django.db.models import Max, Min

from annotator import models as app

# Parents before children: a row's foreign keys point at rows already copied.
PYRAMID_TABLES = [app.Pyramid, app.PyramidModel, app.SCU, app.Contributor, app.Span]
TABLES = [
    app.Docset,
    app.Summary,
    *PYRAMID_TABLES,
    app.PeerAnnotation,
    app.PSE,
    app.PSESpan,
    app.PeerSCUComment,
    app.Assignment,
]

Ranges = dict[type[models.Model], tuple[int, int]]


def id_ranges(tables: list[type[models.Model]]) -> Ranges:
    """Each table's smallest and largest id (the seed is all the database holds of them)."""
    ranges = {}
    for model in tables:
        bounds = model.objects.aggregate(low=Min("id"), high=Max("id"))
        if bounds["high"] is not None:
            ranges[model] = (bounds["low"], bounds["high"])
    return ranges


def insert_copies(
    ranges: Ranges, first: int, last: int, renamed: dict[type[models.Model], dict[str, str]]
) -> None:
    """Copies `first`..`last` of every table of `ranges`, in one statement per table; `renamed`
    gives SQL expressions (of the seed row `t` and the copy's number `k`) for some columns."""
    with connection.cursor() as cursor:
        for model, (low, high) in ranges.items():
            columns, values = [], []
            for f in model._meta.concrete_fields:
                column = connection.ops.quote_name(f.column)
                columns.append(column)
                target = f.related_model if f.is_relation else None
                if f.primary_key:
                    values.append(f"t.{column} + k * {high}")
                elif target in ranges:
                    values.append(f"t.{column} + k * {ranges[target][1]}")
                else:
                    values.append(renamed.get(model, {}).get(f.column, f"t.{column}"))
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
                f"FROM {table} t CROSS JOIN generate_series(%s::bigint, %s::bigint) AS k "
                "WHERE t.id BETWEEN %s AND %s",
                [first, last, low, high],
            )
        for model in ranges:  # new rows made by the application take ids after the copies
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {connection.ops.quote_name(table)}))"
            )


def prepare(collection: app.Collection) -> None:
    """Users for the imported annotators, a second pyramid per docset, and assignments."""
    users = get_user_model().objects
    annotations = app.PeerAnnotation.objects.filter(pyramid__docset__collection=collection)
    for code in annotations.order_by().values_list("annotator_code", flat=True).distinct():
        user = users.create_user(f"annotator-{code}")
        annotations.filter(annotator_code=code).update(annotator=user)

    # The second pyramids: their own name, no fingerprint (content is not imported), and words
    # grouped otherwise (every fifth contributor moved to the next SCU; SCUs left empty removed).
    ranges = id_ranges(PYRAMID_TABLES)
    second = {"name": "t.name || ' (second)'", "creator_code": "'second'", "fingerprint": "''"}
    insert_copies(ranges, 1, 1, {app.Pyramid: second})
    seeds = ranges[app.Pyramid][1]
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE annotator_contributor c SET scu_id = coalesce((SELECT min(n.id) FROM "
            "annotator_scu n WHERE n.pyramid_id = s.pyramid_id AND n.id > s.id), c.scu_id) "
            "FROM annotator_scu s WHERE s.id = c.scu_id AND s.pyramid_id > %s AND c.id %% 5 = 0",
            [seeds],
        )
        cursor.execute(
            "DELETE FROM annotator_scu s WHERE s.pyramid_id > %s AND NOT EXISTS "
            "(SELECT 1 FROM annotator_contributor c WHERE c.scu_id = s.id)",
            [seeds],
        )

    builder = users.create_user("builder")
    work = [
        app.Assignment(
            user_id=a.annotator_id,
            task=app.Assignment.Task.ANNOTATE_PEER,
            pyramid_id=a.pyramid_id,
            peer_id=a.peer_id,
            status=app.Assignment.Status.DONE
            if a.status == app.PeerAnnotation.Status.SUBMITTED
            else app.Assignment.Status.IN_PROGRESS,
        )
        for a in annotations
    ]
    work += [
        app.Assignment(
            user=builder,
            task=app.Assignment.Task.BUILD_PYRAMID,
            pyramid=p,
            status=app.Assignment.Status.DONE
            if p.status == app.Pyramid.Status.SUBMITTED
            else app.Assignment.Status.IN_PROGRESS,
        )
        for p in app.Pyramid.objects.filter(docset__collection=collection)
    ]
    app.Assignment.objects.bulk_create(work)


@dataclass
class Seed:
    """The prepared collection's records, and how many copies of them the database holds."""

    ranges: Ranges
    annotations: int
    pyramids: int
    copies: int = 1

    @classmethod
    def of(cls, collection: app.Collection) -> Seed:
        if app.Collection.objects.exclude(pk=collection.pk).exists():
            raise SystemExit("the seed must be the only collection (copies are made by id range)")
        return cls(
            id_ranges(TABLES),
            app.PeerAnnotation.objects.filter(pyramid__docset__collection=collection).count(),
            app.Pyramid.objects.filter(docset__collection=collection).count(),
        )

    def grow_to(self, copies: int) -> None:
        """Up to `copies` copies in all (the seed is the first), then the planner's statistics."""
        if copies > self.copies:
            renamed = {app.Docset: {"name": "t.name || '-' || (k + 1)"}}  # D0601-2, D0601-3...
            insert_copies(self.ranges, self.copies, copies - 1, renamed)
            self.copies = copies
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
