"""The OpenAPI schema: every operation documents the refusals it may answer (issue 16: schemathesis
found 400 and 404 answers the schema did not name), with their bodies.

- 400, bad input: any operation (a field or a parameter refused, a body that is not a JSON object,
  a NUL character anywhere in the query: annotator.web.bad_input). DRF's validation errors name each
  field refused (`{"name": ["…"]}`), others say it in `detail`.
- 401, not authenticated, and 403, not allowed (the role; a write without the session's CSRF
  token): any operation, since every one needs a user and a role.
- 404: an operation on a record named in its path (what the caller may not see is 404 too), a
  list's page past the last, and where an operation declares it (records named in a body).
An operation's own declaration of one of these codes is kept.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent

from annotator.api.base_serializers import RefusalSerializer

BAD_REQUEST = ResolvedComponent(
    name="BadRequest",
    type=ResolvedComponent.SCHEMA,
    object="BadRequest",
    schema={
        "type": "object",
        "description": "What is wrong with the request: `detail`, or each field or parameter "
        'refused with its messages (`{"name": ["This field may not be blank."]}`).',
        "properties": {"detail": {"type": "string"}},
        "additionalProperties": {},
    },
)
REFUSALS = {
    "400": "Bad input: the body says which field or parameter, and why.",
    "401": "Not authenticated: log in, or send `Authorization: Token <key>`.",
    "403": "Not allowed: your role in the collection does not allow this.",
    "404": "Not found: no such record, or not one you may see; or a page past the last.",
}


class RefusalsAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code in self._refusal_codes():
            if code not in responses:
                responses[code] = {
                    "description": REFUSALS[code],
                    "content": {"application/json": {"schema": self._refusal_schema(code)}},
                }
        for (
            code,
            response,
        ) in responses.items():  # a refusal an operation declares itself, said the same way
            if code in REFUSALS and not response.get("description"):
                response["description"] = REFUSALS[code]
        return responses

    def _refusal_codes(self) -> list[str]:
        codes = ["400", "401", "403"]
        names_a_record = "{" in self.path
        paged = self._is_list_view() and self._get_paginator() is not None
        if names_a_record or paged:
            codes.append("404")
        return codes

    def _refusal_schema(self, code: str) -> dict:
        if code == "400":
            self.registry.register_on_missing(BAD_REQUEST)
            return BAD_REQUEST.ref
        return self.resolve_serializer(RefusalSerializer, "response").ref  # {"detail": "…"}
