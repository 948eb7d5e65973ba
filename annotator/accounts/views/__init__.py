"""The account pages: logging in and resetting a password (`auth.py`), accounts (`users.py`)."""
