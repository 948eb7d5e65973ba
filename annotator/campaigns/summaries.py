"""Adding a summary to a docset, one way for the Paste page and POST /api/summaries/.

A summary is stored as every path stores it: its text with line breaks as LF and no blank space
around it (annotator.transfer.uploads.summary_text), a peer's system number without leading
zeros ("06" and "6" are one system), one summary of a kind by an author in a docset.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from annotator.campaigns.access import can_administer
from annotator.campaigns.models import Docset, Summary
from annotator.ducview.names import system_id
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.transfer.uploads import summary_text


class SummaryRefused(RuleBroken):
    """A summary that cannot be added; `field` names the field at fault (None: the whole)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def clean_text(text: str) -> str:
    """The text as stored; SummaryRefused if nothing is left of it."""
    text = summary_text(text)  # a browser sends CRLF for a line break
    if not text:
        raise SummaryRefused("The text is empty.", "text")
    return text


def clean_author(kind: str, author: str) -> str:
    author = author.strip()
    return system_id(author) if kind == Summary.Kind.PEER and author else author


def check_new(docset: Docset, kind: str, author: str) -> None:
    """SummaryRefused if the docset has a summary of this kind by this author (`author` cleaned)."""
    if Summary.objects.filter(docset=docset, kind=kind, author=author).exists():
        raise SummaryRefused(f"Docset {docset.name} already has a {kind} summary by {author}.")


def create_summary(
    docset: Docset, by, kind: str, author: str, text: str, name: str = ""
) -> Summary:
    """Add a summary to `docset` for `by`, an administrator of its collection (NotAllowed
    otherwise); SummaryRefused for an empty text or a summary already there."""
    if not can_administer(by, docset.collection_id):
        raise NotAllowed("Only the collection's administrators add summaries.")
    author, text = clean_author(kind, author), clean_text(text)
    check_new(docset, kind, author)
    try:
        with transaction.atomic():
            return Summary.objects.create(
                docset=docset, kind=kind, author=author, name=name.strip(), text=text
            )
    except IntegrityError:  # added meanwhile by someone else
        raise SummaryRefused(
            f"Docset {docset.name} already has a {kind} summary by {author}."
        ) from None
