"""Transfer pages: uploads and imports (`imports.py`), collection archives (`archives.py`), the
DUCView zip (`downloads.py`)."""
