"""/favicon.ico: browsers ask for it wherever a page names no icon (the Django admin, a JSON answer
or a file opened in a tab), and some always do. Sent on to the icon among the static files
(static/favicon.ico: a hashed name in production, cached for a year); the pages name it and its SVG
(templates/_favicon.html). No login, no session: it is the site's, not a user's."""

from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request):
    return HttpResponseRedirect(static("favicon.ico"))
