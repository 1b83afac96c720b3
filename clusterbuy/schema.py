"""OpenAPI post-processing: document the error answers every operation can give.

DRF answers 400 (field messages), 401, 403, 404 and 429 on any route; drf-spectacular
lists only the success codes. Integrations (and schemathesis) rely on the full list.
"""

ERROR_SCHEMA = {
    "type": "object",
    "description": "Errors by field: {field: [message, ...]}, or {detail: message}.",
    "additionalProperties": True,
}
ERROR_CODES = {
    "400": "Invalid input: messages by field.",
    "401": "Not authenticated.",
    "403": "Your role does not allow this action.",
    "404": "Not found (or not your organisation's).",
    "405": "Method not allowed.",
    "429": "Too many requests.",
}


def add_error_responses(result, generator, request, public):
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("ErrorResponse", ERROR_SCHEMA)
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for code, description in ERROR_CODES.items():
                operation["responses"].setdefault(
                    code,
                    {
                        "description": description,
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/ErrorResponse"}
                            }
                        },
                    },
                )
    return result
