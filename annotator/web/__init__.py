"""The site's plumbing: bad input refused at the door (`bad_input.py`), the database's outages
told from refusals (`database.py`), the 500 page (`errors.py`), `/healthz/` (`health.py`) and the
icon (`favicon.py`).

Also:

- `guide.py` — `/guide/`, the user guide as `build_guide` wrote it
- `paging.py` — the page of a long table a request asks for (the scores and progress pages)
- `refusal_logs.py` — one line in the server's log for each refused request, not a traceback
- `vary.py` — answers that differ by whether htmx asked say so to caches (`Vary: HX-Request`)
"""
