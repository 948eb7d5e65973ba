"""Peer annotation: matching a peer summary's text to the pyramid's SCUs (PSEs), or to none.

- `editing.py` — every operation an annotator performs on PSEs, with the method's rules, on the
  edit engine (`annotator.editing`).
- `suggestions.py` — which SCUs the selected words may express, ranked for the annotator.
- `starting.py` — starting an annotation (the page and the API alike: the assignment is marked
  started).
- `workspace.py` — what the page shows, live scores included (from `scoring.scores.records`);
  `views.py` — the peer annotation page.
- `api.py`, `serializers.py` — peer annotations, PSEs and their history in the REST API.

Also:

- `answers.py` — what the peer annotation's edit views answer (annotator.peer_annotation.views,
  and the proposals' annotator.assist.views)
- `models.py` — the records of a peer annotation
"""
