"""Stored scores know their collection and are indexed by it and each sortable column (issue 19:
a page sorted by a score reads the first rows of an index instead of sorting the collection)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

import scoring.models


def fill_collections(apps, schema_editor):
    """The collection of every stored score already there, from its annotation's docset."""
    StoredScore = apps.get_model("scoring", "StoredScore")
    PeerAnnotation = apps.get_model("annotator", "PeerAnnotation")
    StoredScore.objects.update(
        collection_id=Subquery(
            PeerAnnotation.objects.filter(pk=OuterRef("annotation_id")).values(
                "pyramid__docset__collection_id"
            )[:1]
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("annotator", "0017_task_paths_moved"),
        ("scoring", "0002_stored_scores"),
    ]

    operations = [
        migrations.AddField(
            model_name="storedscore",
            name="collection",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="annotator.collection",
            ),
        ),
        migrations.RunPython(fill_collections, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="storedscore",
            name="collection",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="annotator.collection",
            ),
        ),
        *(
            migrations.AddIndex(model_name="storedscore", index=index)
            for index in scoring.models.score_sort_indexes()
        ),
    ]
