from django.apps import AppConfig
from django.db import transaction


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from annotator.transfer.importing import collection_imported

        collection_imported.connect(_refresh_after_import, dispatch_uid="scoring-stored-scores")


def _refresh_after_import(sender, collection_id: int, **kwargs) -> None:
    """After an import, the collection's stored scores, its system means and its kept pyramid
    agreement are brought up to date by tasks (in the background with the database worker; at once
    with the immediate backend)."""
    transaction.on_commit(lambda: _enqueue_refreshes(collection_id))


def _enqueue_refreshes(collection_id: int) -> None:
    from scoring.agreement.records import keep_pyramid_agreement
    from scoring.scores.score_table import refresh_collection_scores
    from scoring.scores.system_means import keep_system_means

    refresh_collection_scores.enqueue(collection_id)
    keep_system_means.enqueue(collection_id)
    keep_pyramid_agreement.enqueue(collection_id)
