"""The collection (and docset) a command names, or a CommandError saying what exists (the
scoring commands and import_judgments alike)."""

from django.core.management.base import CommandError

from annotator.campaigns.models import Collection


def collection_and_docset(name: str, docset: str | None = None) -> Collection:
    try:
        collection = Collection.objects.get(name=name)
    except Collection.DoesNotExist:
        known = ", ".join(Collection.objects.values_list("name", flat=True)) or "none"
        raise CommandError(f"no collection {name!r} (known: {known})") from None
    if docset and not collection.docsets.filter(name=docset).exists():
        raise CommandError(f"collection {collection.name!r} has no docset {docset!r}")
    return collection
