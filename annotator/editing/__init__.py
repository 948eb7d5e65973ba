"""The edit engine both editors (pyramids and peer annotations) run on.

- `engine.py` — lock → check → apply → record, undo and redo, for any record an Editor describes.
- `errors.py` — the refusals (EditError: RuleBroken, NotAllowed, StaleVersion), their one home:
  every domain raises them from there, and it imports nothing.
- `actions.py` — the editing actions by name, with the arguments each takes: one table for the
  pages and the API, mapping refusals to 409 (someone else changed it), 403 and 422.
- `history.py` — the undo stack kept in the change tables (applied, undone, discarded).
- `refusals.py` — how the editing pages answer a refused action.

- `models.py` — the history of every edit of a pyramid or a peer annotation.

The domains supply their Editor and their operations: `annotator.pyramids.editing` and
`annotator.peer_annotation.editing`.
"""
