"""DRF's browsable API (an endpoint opened in a browser) under the Content-Security-Policy
(issue 16).

DRF's templates write style attributes and a <style> block (its code colours): its pages alone
allow inline styles. Its scripts are DRF's static files, so scripts stay strict there too.
A module of its own: REST_FRAMEWORK's settings import it while rest_framework.views loads.
"""

from csp.constants import UNSAFE_INLINE
from rest_framework import renderers


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's browsable API, its answer allowing inline styles (django-csp reads `_csp_update` on a
    response, as its csp_update decorator sets it)."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None:
            response._csp_update = {"style-src": [UNSAFE_INLINE]}
        return super().render(data, accepted_media_type, renderer_context)
