"""Pyramids: building one from the model summaries, SCU by SCU, with the method's rules.

- `editing.py` — every operation (new SCU, add or remove a contributor, merge, split, relabel,
  reorder, submit) on the edit engine (`annotator.editing`).
- `problems.py` — where a pyramid breaks the rules (Passonneau 2009 §2.1), for annotators to fix.
- `workspace.py` — what the builder page shows; `views.py` — the pyramid page: read it, or
  build it.
- `api.py`, `serializers.py` — pyramids, SCUs, contributors, spans and their history in the
  REST API, editing through the same actions as the page.

Also:

- `ordering.py` — where SCUs stand in a pyramid's order, written with as little as possible
  (pure, no Django)
- `parts.py` — every contributor part and SCU label of a pyramid, read once for all that shows
  them
- `models.py` — the records of a pyramid
"""
