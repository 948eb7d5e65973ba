"""The annotation app: the records of a Pyramid evaluation and everything people do with them.

One package per part of the method, each with its logic, services, pages and API pieces:

- `models.py` — the records, named as in the method (Docset, Summary, Pyramid, SCU, Contributor,
  PeerAnnotation, PSE, Assignment, ...): one module, the app's vocabulary in one place.
- `pyramids/` — building a pyramid: SCUs and contributors, the method's rules, the builder page.
- `peer_annotation/` — matching a peer's text to the pyramid's SCUs (PSEs), suggestions, the page.
- `editing/` — the edit engine both editors run on: lock, check, apply, record, undo and redo;
  the actions by name and how pages answer a refusal.
- `adjudication/` — comparing annotators' pyramids and annotations and merging them into a
  consensus, the queue of what waits.
- `campaigns/` — collections, docsets and summaries, members, who may see and change what
  (`access.py`), giving out work (`assignments.py`), progress, the dashboard.
- `transfer/` — records in and out: DUCView imports and exports, uploads, human judgments,
  collection archives, and the background jobs (with their leases) that run them.
- `ducview/` — DUCView's file formats, free of Django.
- `text/` — words, selections, shading and names in order: small pure helpers every page uses.
- `accounts/` — logging in, password resets, accounts and roles.
- `web/` — the site's plumbing: bad input at the door, the database's outages, error pages,
  `/healthz/`, the icon.
- `api/` — the REST API's shell (router, root page, schema, documentation pages) and what its
  endpoints share (`base.py`, `base_serializers.py`); the endpoints come from the packages above.

Also:

- `admin.py` — the Django admin for every record, usable by administrators from day one
- `apps.py` — the app's configuration
- `urls.py` — the pages' URLs
- `assist/` — assistance for the annotator (issue 20)
- `coverage/` — coverage judgments beside pyramids (issue 21)
- `demo/` — the demo data `rundemo` and `load_demo` install
- `worktime/` — active time on task (issue 20)
"""
