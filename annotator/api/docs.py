"""The API's documentation pages, Swagger UI (/api/docs/) and Redoc (/api/redoc/), from our own
static files and under the Content-Security-Policy (issues 16, 17): they ask no other site for
anything, so they work offline (tests/api/test_browser_api_docs.py blocks every other site).

- Swagger UI (drf-spectacular-sidecar's files): drf-spectacular's "split" view serves its start-up
  script as a file of its own (the same URL with ?script), so no inline script is needed; our
  template leaves out the inline <style> block (its rules are in static/css/api-docs.css). The
  site's strict policy applies. (Its validator badge, fetched from validator.swagger.io, belongs to
  the StandaloneLayout; drf-spectacular uses the BaseLayout.)
- Redoc (static/vendor/redoc: the sidecar's release from the npm registry, without the logo it
  always fetched from cdn.redoc.ly) writes its styles into <style> elements as it runs
  (styled-components, which takes no nonce from a page), and runs its search in a worker made from
  a blob: URL, so that page alone allows inline styles and blob: workers; its scripts stay our own
  files. Our template takes the fonts its theme names (Roboto, Montserrat) from
  static/vendor/fontsource instead of Google's, and has no inline script.

The documentation pages are pages: anonymous visitors are sent to log in.

DRF's browsable API (an endpoint opened in a browser) loosens the policy in renderers.py.
"""

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib.auth.decorators import login_required
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

swagger_ui = login_required(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/swagger_ui.html")
)

redoc = login_required(
    csp_update({"style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]})(
        SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html")
    )
)
