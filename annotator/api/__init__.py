"""The REST API's shell: the router (`urls.py`), its entry page (`root.py`), the OpenAPI schema
and its refusals (`schema.py`), the documentation pages (`docs.py`), query parameters several
endpoints share (`params.py`), the browsable API under the Content-Security-Policy
(`renderers.py`) and its page names (`names.py`). The endpoints over the records are in
`views.py` and `serializers.py`, calling the same services as the pages; imports and archives
in `annotator.transfer.api`; scores in `scoring.api`.
"""
