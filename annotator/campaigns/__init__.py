"""Campaigns: collections of docsets and summaries, their members, and the work given out.

- `access.py` — who may see and change what, as querysets (the policy every page and endpoint
  asks); `guards.py` — the checks at a page's door (404 for what one may not see, 403 for what
  one may not change), used by both apps' views.
- `assignments.py` — giving out work (one or in bulk, round robin), withdrawing, reassigning;
  `assignment_status.py` — an assignment follows its work (started, done).
- `progress.py` — how far the work has come, one row per assignment.
- `forms.py` — the administration pages' forms.
- `api.py`, `serializers.py` — the same records in the REST API (collections, docsets,
  summaries, assignments, human judgments).
- `views/` — collections, docsets, summaries and members (`collections.py`), assigning and
  progress (`work.py`), the home page with one's own work (`home.py`).

Also:

- `summaries.py` — adding a summary to a docset, one way for the Paste page and POST
  /api/summaries/
- `work_actions.py` — what the progress page's Withdraw, Reassign and Reopen buttons do, for
  assignments and judgment tasks alike
- `models.py` — the records of a campaign
"""
