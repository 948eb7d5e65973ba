"""The REST API's shell: the router (`urls.py`), its entry page (`root.py`), the OpenAPI schema
and its refusals (`schema.py`), the documentation pages (`docs.py`), query parameters several
endpoints share (`params.py`), the browsable API under the Content-Security-Policy
(`renderers.py`) and its page names (`names.py`); and what the endpoints of several packages
share: their base classes and the editing-action endpoint (`base.py`), their shared serializers
(`base_serializers.py`).

The endpoints over the records are in their packages, each an `api.py` and a `serializers.py`
calling the same services as the pages: `annotator.campaigns` (collections, docsets, summaries,
assignments, human judgments), `annotator.pyramids` (pyramids, SCUs, contributors, spans and a
pyramid's history), `annotator.peer_annotation` (peer annotations, PSEs and an annotation's
history), `annotator.coverage` (unit sets, units, judgment tasks and their answers, coverage
judgments), `annotator.adjudication` (starting a consensus pyramid or annotation); imports and
archives in `annotator.transfer.api`; scores in `scoring.scores.api`.
"""
