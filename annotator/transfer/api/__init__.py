"""Imports (`imports.py`) and collection archives (`archives.py`) in the REST API."""
