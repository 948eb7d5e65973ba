"""The checks at the door of a page: the object exists for this user (404 otherwise, so nothing
reveals what a user may not see), and the user holds the role the page needs (403 otherwise)."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from annotator.campaigns.access import can_administer, can_read_collection, visible_collections
from annotator.campaigns.models import Collection, Docset

READ = "read"
ADMINISTER = "administer"


def collection_for(request, pk: int, need: str = READ) -> Collection:
    """The collection `pk` if the user may see it (else 404) and has the role `need` (else 403)."""
    collection = get_object_or_404(visible_collections(request.user), pk=pk)
    allowed = can_administer if need == ADMINISTER else can_read_collection
    if not allowed(request.user, collection):
        raise PermissionDenied("Your role in this collection does not allow this.")
    return collection


def docset_for(request, pk: int, need: str = READ) -> Docset:
    """The docset `pk` (with its collection) if the user may see it (else 404) and has the role
    `need` in its collection (else 403)."""
    docset = get_object_or_404(
        Docset.objects.filter(collection__in=visible_collections(request.user)).select_related(
            "collection"
        ),
        pk=pk,
    )
    collection_for(request, docset.collection_id, need)
    return docset
