"""Peer annotation: matching a peer summary's text to the pyramid's SCUs (PSEs), or to none.

- `editing.py` — every operation an annotator performs on PSEs, with the method's rules, on the
  edit engine (`annotator.editing`).
- `suggestions.py` — which SCUs the selected words may express, ranked for the annotator.
- `starting.py` — starting an annotation (the page and the API alike: the assignment is marked
  started).
- `workspace.py` — what the page shows, live scores included (from `scoring.records`);
  `views.py` — the peer annotation page.
- `api.py`, `serializers.py` — peer annotations, PSEs and their history in the REST API.
"""
