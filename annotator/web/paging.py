"""The page of a long table a request asks for (the scores and progress pages)."""

from django.core.paginator import Page, Paginator


def page_asked(paginator: Paginator, number: str | None) -> Page:
    """The page numbered `number` (?page=): the first where there is no number, or one below 1
    (Django's get_page gives the last for 0 and below), the last beyond the last."""
    try:
        wanted = int(number or 1)
    except ValueError:
        wanted = 1
    return paginator.get_page(max(wanted, 1))
