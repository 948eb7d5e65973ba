"""Peer annotation: matching a peer summary's text to the pyramid's SCUs (PSEs), or to none.

- `editing.py` — every operation an annotator performs on PSEs, with the method's rules, on the
  edit engine (`annotator.editing`).
- `suggestions.py` — which SCUs the selected words may express, ranked for the annotator.
- `views.py` — the peer annotation page, with live scores (from `scoring.records`).
"""
