"""The site's plumbing: bad input refused at the door (`bad_input.py`), the database's outages
told from refusals (`database.py`), the 500 page (`errors.py`), `/healthz/` (`health.py`) and the
icon (`favicon.py`).
"""
