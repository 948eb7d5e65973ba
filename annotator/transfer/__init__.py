"""Records in and out of the tool.

- `importing.py` — DUCView files stored as records, the one importer every path uses (command,
  browser, API); `exporting.py` — records back to DUCView files; `uploads.py` — reading uploads
  safely; `judgments.py` — human judgments (NIST's tables, CSV) for correlation studies.
- `archive.py` — a whole collection in one file, restored losslessly.
- `jobs.py`, `archive_jobs.py` — imports and archives run in the background (Django's Tasks API);
  `job_bytes.py` — their bytes kept a piece at a time; `leases.py` — work that loses its worker is
  noticed and resumed.
- `downloads.py` — the DUCView zip and an archive download, answered alike to pages and API.
- `views/` and `api/` — the same from the browser and from the REST API.

Also:

- `batches.py` — files imported in transactions of about a second each, each file in a savepoint
  of its own
- `models.py` — the records of background work
- `forms.py` — the upload, DUCView import and archive restore forms: files checked before anything
  is stored
"""
