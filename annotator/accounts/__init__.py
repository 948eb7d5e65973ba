"""Accounts: logging in (throttled), password resets, accounts and their roles.

`login_throttle.py` holds django-axes to two limits, `context_processors.py` tells every page the
user's roles; the pages are in `views/` (`auth.py`: Django's account pages with what this site
adds; `users.py`: accounts for site administrators).

Also:

- `backends.py` — signing in and permissions
- `forms.py` — a new account and its site-wide role (the accounts page)
"""
