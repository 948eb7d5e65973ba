from django.contrib import admin
from django.urls import include, path

from annotator.accounts.views import auth as accounts
from annotator.web import favicon, guide, health

admin.site.site_header = "Pyramid annotator administration"
admin.site.site_title = "Pyramid annotator"
# An unhandled error: a 503 with Retry-After while the database is unreachable, else the plain 500
# page.
handler404 = "annotator.web.errors.not_found"
handler500 = "annotator.web.errors.server_error"

urlpatterns = [
    # For health checks (Docker, deploy/stack.sh): no login, no session (annotator/views/health.py).
    path("healthz/", health.healthz, name="healthz"),
    path(
        "favicon.ico", favicon.favicon, name="favicon"
    ),  # the site's icon, for pages that name none
    # The user guide, built from docs/ by `build_guide` (annotator/web/guide.py): no login.
    path("guide/", guide.guide, name="guide"),
    path("guide/<path:path>", guide.guide, name="guide-page"),
    path("admin/", admin.site.urls),
    # The log-in and password reset pages as this site needs them (annotator/views/accounts.py);
    # the others (password change, reset confirmation, …) are django.contrib.auth's.
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password_reset/done/",
        accounts.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("annotator.api.urls")),
    path("", include("scoring.urls")),
    path("", include("annotator.urls")),
]
