"""The account pages of django.contrib.auth (config/urls.py), with what this site adds (issue 16):

- log-in: a "Forgot your password?" link only where email can be sent (settings.EMAIL_ENABLED),
  and a note where a log-in cannot work: a plain-HTTP request while cookies are secure-only;
- password reset: where no email can be sent, its pages say so and to ask an administrator
  (who resets passwords in the Django admin), instead of claiming that an email was sent.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.shortcuts import render

UNAVAILABLE = "registration/password_reset_unavailable.html"


def cookies_need_https(request) -> bool:
    """Browsers keep no secure-only cookie from a plain-HTTP answer (and send none back over plain
    HTTP; Chromium excepts localhost): the session and CSRF cookies are lost, and a log-in returns
    to the log-in page without a word. True where that is about to happen."""
    return not request.is_secure() and (
        settings.SESSION_COOKIE_SECURE or settings.CSRF_COOKIE_SECURE
    )


class LoginView(auth_views.LoginView):
    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {
            "password_reset_by_email": settings.EMAIL_ENABLED,
            "cookies_need_https": cookies_need_https(self.request),
        }


class PasswordResetView(auth_views.PasswordResetView):
    """The form asking for an email address, where one can be sent; else the page saying it
    cannot."""

    def dispatch(self, request, *args, **kwargs):
        if not settings.EMAIL_ENABLED:
            return render(request, UNAVAILABLE)  # a POST too: nothing is sent, nothing claimed
        return super().dispatch(request, *args, **kwargs)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    """ "If an account has this address, we sent a link" — only where a link can be sent."""

    def dispatch(self, request, *args, **kwargs):
        if not settings.EMAIL_ENABLED:
            return render(request, UNAVAILABLE)
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        # How long the link works (PASSWORD_RESET_TIMEOUT, in seconds: three days by default).
        return super().get_context_data(**kwargs) | {
            "timeout_days": max(1, round(settings.PASSWORD_RESET_TIMEOUT / 86400))
        }
