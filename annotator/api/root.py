"""The API's entry page, /api/: what the API is, how to authenticate, where its documentation is,
and a link to every top-level endpoint, the router's and those of their own (`scores`).

DRF's root said "The default basic root view for DefaultRouter" and listed only the router's
endpoints. Its prose is the OpenAPI schema's description (SPECTACULAR_SETTINGS["DESCRIPTION"], what
/api/docs/ and /api/redoc/ show), so the two say the same; the root adds the links to the
documentation, in its page and, for programs, in a `Link` header (RFC 8631: `service-desc` the
schema, `service-doc` the documentation). Like DRF's, the root is left out of the schema.

The root alone is open to visitors not logged in: it tells them how to authenticate (DRF's page
shows no description with a 401), and it names only what the README and the documentation name.
"""

import re

from django.conf import settings
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from rest_framework import permissions, routers

# Endpoints of their own (not the router's) listed at the root: {key: URL name}, each after the
# router's endpoint named (its place in the README's list).
OWN_ENDPOINTS = {
    "scores": ("api-scores", "assignments"),
    "coverage-scores": ("api-coverage-scores", "assignments"),  # issue 21, after the scores
}

# The documentation pages and the schema, as the root names them: (URL name, what it is).
DOCUMENTATION = [
    ("api-docs", "Swagger UI: every endpoint, its parameters and answers, to try out"),
    ("api-redoc", "Redoc: the same, to read"),
    ("api-schema", "the OpenAPI 3 schema, in YAML; ?format=json for JSON"),
]

LISTS = (
    "Each endpoint below lists its records (a page at a time: ?page=), filtered as the "
    "documentation says; the scores are those of a collection (?collection=ID)."
)


def schema_description() -> str:
    """The OpenAPI schema's description (SPECTACULAR_SETTINGS["DESCRIPTION"], a string)."""
    return str(settings.SPECTACULAR_SETTINGS["DESCRIPTION"])


def description_text() -> str:
    """The root's description as text (an OPTIONS answer, a JSON client)."""
    documentation = "; ".join(f"{reverse(name)} ({what})" for name, what in DOCUMENTATION)
    return "\n\n".join([schema_description(), f"Documentation: {documentation}.", LISTS])


def description_html() -> str:
    """The root's description in the browsable API: the schema's prose (its `code` as code), the
    documentation linked."""
    prose = re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(schema_description()))
    links = mark_safe(
        "; ".join(
            format_html('<a href="{}">{}</a> ({})', reverse(name), reverse(name), what)
            for name, what in DOCUMENTATION
        )
    )
    return format_html(
        "<p>{}</p><p>Documentation: {}.</p><p>{}</p>", mark_safe(prose), links, LISTS
    )


class APIRootView(routers.APIRootView):
    """The API's entry page: its description (description_text), and every top-level endpoint."""

    permission_classes = [permissions.AllowAny]

    def get_view_description(self, html=False):
        return mark_safe(description_html()) if html else description_text()

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Link"] = (
            f'<{request.build_absolute_uri(reverse("api-schema"))}>; rel="service-desc", '
            f'<{request.build_absolute_uri(reverse("api-docs"))}>; rel="service-doc"'
        )
        return response


class Router(routers.DefaultRouter):
    """DRF's DefaultRouter, its root this module's, listing OWN_ENDPOINTS too."""

    APIRootView = APIRootView

    def get_api_root_view(self, api_urls=None):
        endpoints = {}
        for prefix, _viewset, basename in self.registry:
            endpoints[prefix] = self.routes[0].name.format(basename=basename)
            for key, (url_name, after) in OWN_ENDPOINTS.items():
                if after == prefix:
                    endpoints[key] = url_name
        for key, (url_name, _after) in OWN_ENDPOINTS.items():
            endpoints.setdefault(key, url_name)
        return self.APIRootView.as_view(api_root_dict=endpoints)
