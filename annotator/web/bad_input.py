"""Bad input answers 400, never 500 (issue 16): a NUL character is refused at the door.

PostgreSQL text cannot hold a NUL (U+0000): a query or a save with one fails in the database, a
server error. No text of the method (labels, summaries, names, filters) has a use for it, so
`RefuseNulMiddleware` refuses it in any query string (pages and API alike) and in the pages' form
posts (field names and values), before a view looks anything up or stores anything, in the form
the client shows:
- a page: templates/400.html, naming the field;
- htmx: a short plain-text message (static/js/workspace-actions.js shows it in the status line);
- the REST API: JSON as its validation errors are, `{"<field>": ["<message>"]}`.

The API's bodies (JSON or forms) are left to the API: its serializers refuse a NUL in a text field
themselves (DRF's CharField does), and the editing actions check what they read by hand
(annotator.editing.actions). The editing pages' form posts are left to their views too
(`refuses_nul_itself`), so that a NUL is refused there as any bad input of an edit is: 422, in the
status line, the page kept as it was.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render

NUL = "\x00"


def field_with_nul(pairs: Iterable[tuple[object, object]]) -> str | None:
    """The name of the first field whose name or value (a string, or a list of them, as
    QueryDict.lists() gives) holds a NUL, shown printable; None if none does."""
    for name, value in pairs:
        values = value if isinstance(value, list) else [value]
        if NUL in str(name) or any(isinstance(v, str) and NUL in v for v in values):
            return str(name).replace(NUL, "\\0")
    return None


def nul_message(field: str, kind: str = "field") -> str:
    return (
        f"The {kind} “{field}” holds a NUL character (\\0), which no text may hold: remove it "
        "and try again."
    )


def refuses_nul_itself(view):
    """Mark a view that refuses a NUL in its posted fields itself: the middleware then leaves its
    form post to it (its query string is still checked)."""
    view.refuses_nul_itself = True
    return view


def _is_api(view_func) -> bool:
    """Whether the view is the REST API's (DRF's views carry their class as `cls`)."""
    # Imported here: DRF's views read the REST_FRAMEWORK settings as they load, which must not
    # happen as the middleware loads (the URLconf has loaded them by the time a view is known).
    from rest_framework.views import APIView

    return issubclass(getattr(view_func, "cls", object), APIView)


class RefuseNulMiddleware:
    """A NUL in the query string, or in a form post's field names or values, answers 400."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        # In process_view, so that the view is known: its kind of answer, and whether it checks
        # its own form post. Every earlier middleware has run (the session, the user).
        api = _is_api(view_func)
        field, kind = field_with_nul(request.GET.lists()), "query parameter"
        # A page's form post (urlencoded or multipart, files apart: request.POST). The CSRF check,
        # next, reads it anyway; the API parses its own bodies.
        pages_post = (
            request.method == "POST"
            and not api
            and not getattr(view_func, "refuses_nul_itself", False)
        )
        if field is None and pages_post:
            field, kind = field_with_nul(request.POST.lists()), "field"
        if field is None:
            return None
        message = nul_message(field, kind)
        if api:
            return JsonResponse(
                {field: [message]}, status=400, json_dumps_params={"ensure_ascii": False}
            )
        if request.headers.get(
            "HX-Request"
        ):  # htmx swaps no error answer in: a line the page can show
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return render(request, "400.html", {"message": message}, status=400)
