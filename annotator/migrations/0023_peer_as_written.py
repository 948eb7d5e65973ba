"""The peer's id as an imported file wrote it (issue 33: DUC 2006's D0647 names systems 01..08,
and NIST's table writes them so), read back from the file names of annotations imported before."""

from pathlib import PurePosixPath

from django.db import migrations, models

from annotator.ducview.names import identity_from_name, system_id


def spelling_from_file_names(apps, schema_editor):
    PeerAnnotation = apps.get_model("annotator", "PeerAnnotation")
    changed = []
    for annotation in PeerAnnotation.objects.exclude(source_name="").select_related("peer"):
        written = identity_from_name(PurePosixPath(annotation.source_name)).peer
        if written and written != annotation.peer.author and system_id(written) == (
            annotation.peer.author
        ):
            annotation.peer_as_written = written
            changed.append(annotation)
    PeerAnnotation.objects.bulk_update(changed, ["peer_as_written"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("annotator", "0022_shared_cache_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="peerannotation",
            name="peer_as_written",
            field=models.CharField(
                blank=True,
                help_text="The peer's id as the imported file wrote it, where it differs from the "
                'peer\'s ("01" for system 1 in DUC 2006\'s D0647): NIST\'s table writes it so.',
                max_length=100,
            ),
        ),
        migrations.RunPython(spelling_from_file_names, migrations.RunPython.noop),
    ]
