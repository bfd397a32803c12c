"""The OpenAPI format: specs detected and loaded, REST passes on, the spec's own schemas win, HTTP served."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Catalog
from apiatlas.sources.format import Progress, SourceFormat

# plain JSON types are values a user can say; identifiers (``integer:id``, schema names) are not
USER_VALUE_TYPES = [
    "boolean", "integer", "number", "string", "string:date", "string:date-time", "string:email",
    "string:uri", "string:url", "string:hostname", "string:ipv4", "string:ipv6",
]  # fmt: skip


class OpenApiFormat(SourceFormat):
    """OpenAPI 3.0/3.1 or Swagger 2.0 specs; operations are called on the upstream API over HTTP."""

    kind = "openapi"
    description = "an OpenAPI 3.0/3.1 or Swagger 2.0 spec file, JSON or YAML (relative $refs followed)"
    display_name = "OpenAPI spec"
    tool_prefix = "api_"
    executor = "http"
    rest_passes = True
    source_schemas_win = True  # enums, formats and nested bodies arrive with each parameter

    def detects(self, path: Path) -> bool:
        from apiatlas.sources.openapi.loader import is_openapi_spec

        return is_openapi_spec(path)

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.openapi.loader import load_openapi

        return load_openapi(path, progress=progress)

    def build_defaults(self) -> dict[str, Any]:
        # no name rule: deprecated operations (approved false) are dropped
        return {
            "funnel": [
                {"name": "not deprecated", "field": "approved", "operator": "not_equals", "value": False}
            ],
            "max_edges_per_consumer_field": 10,
            "user_value_types": USER_VALUE_TYPES,
        }

    def compile_notes(self, catalog: Catalog) -> list[str]:
        spec = catalog.stats.get("openapi")
        if not spec:
            return []
        found, written = spec["operations"], spec["operations_in_spec"]
        verdict = "[green]all present[/green]" if found == written else "[red]MISSING[/red]"
        return [f"Operations: {found} APIs from {written} operations in the spec ({verdict})."]
