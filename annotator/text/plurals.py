"""Counts in words, the noun in the form the number asks for: "1 docset", "2 docsets", "0 files"
(Django's ngettext chooses; issue 17 found "1 docsets", "1 of 1 files", "1 SCUs" in messages).
Templates say the same with Django's `pluralize` filter."""

from django.utils.translation import ngettext


def counted(n: int, word: str, plural: str | None = None) -> str:
    """`n` and the noun: counted(1, "file") is "1 file";
    counted(2, "summary", "summaries") "2 summaries"."""
    return f"{n} {ngettext(word, plural or word + 's', n)}"
