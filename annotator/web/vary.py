"""Answers that differ by whether htmx asked say so to caches (Vary: HX-Request)."""

from django.utils.cache import patch_vary_headers


class VaryOnHtmxMiddleware:
    """Add HX-Request to every answer's Vary. A page such as the progress page answers its own
    address with the whole page, or with only its table when htmx asks (the address pushed to
    the history): without the header, a browser that left the page and comes Back takes the
    table alone from its cache and shows it bare, without the page's layout or filters."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response
