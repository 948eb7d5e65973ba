"""Query parameters several API endpoints share, read one way everywhere."""

from __future__ import annotations

from rest_framework.exceptions import ValidationError

from annotator.campaigns.models import Collection, Docset

DOCSET_PARAMETER = (
    "Only this docset of the collection: its id, as every other endpoint filters by (e.g. "
    "`docset=3`); its name is accepted too (`docset=D0601`) where the value is not all digits. "
    "A docset that is not the collection's answers 400."
)


def docset_param(collection: Collection, value: str | None) -> Docset | None:
    """The docset `?docset=` names: by its id (all digits), as every other endpoint filters, or
    by its name; None if not given; 400 if the collection has no such docset."""
    value = (value or "").strip()
    if not value:
        return None
    docsets = collection.docsets.all()
    found = (
        docsets.filter(pk=int(value))
        if value.isdigit() and int(value) < 2**63
        else docsets.filter(name=value)
    ).first()
    if found is None:
        raise ValidationError(
            {"docset": [f"The collection has no docset {value!r} (give its id, or its name)."]}
        )
    return found
