"""The NESTFUL format: a JSON list of endpoints with input and output parameters, REST passes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Catalog
from apiatlas.sources.format import Progress, SourceFormat
from apiatlas.sources.openapi.format import USER_VALUE_TYPES


class NestfulFormat(SourceFormat):
    """NESTFUL's ``executable-spec.json``: one HTTP endpoint per entry, called by its ``name``."""

    kind = "nestful"
    description = "a NESTFUL spec: a JSON list of endpoints with name, query_parameters, output_parameters"
    display_name = "NESTFUL spec"
    tool_prefix = "api_"
    executor = "http"
    rest_passes = True
    source_schemas_win = True  # each parameter arrives with its type and its closed list of values

    def detects(self, path: Path) -> bool:
        from apiatlas.sources.nestful.loader import is_nestful_spec

        return is_nestful_spec(path)

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.nestful.loader import load_nestful

        return load_nestful(path, progress=progress)

    def build_defaults(self) -> dict[str, Any]:
        return {"max_edges_per_consumer_field": 10, "user_value_types": USER_VALUE_TYPES}

    def compile_notes(self, catalog: Catalog) -> list[str]:
        found = catalog.stats.get("nestful", {}).get("endpoints", 0)
        return [f"Endpoints: {found} APIs from the NESTFUL spec."]
