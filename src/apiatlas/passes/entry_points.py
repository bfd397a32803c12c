"""The entry-points pass: mark kept APIs callable from what a user can say (names, dates, account numbers)."""

from __future__ import annotations

from apiatlas.catalog.model import Api, Catalog
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.passes.graph import input_fields
from apiatlas.passes.types import is_user_value_type


def blocking_inputs(api: Api, catalog: Catalog, config: BuildConfig) -> list[str]:
    """Required inputs whose type is not a user value (they must come from another API's output)."""
    return [
        f"{f.table}.{f.name}" if f.table else f.name
        for f in input_fields(api)
        if f.required and not is_user_value_type(catalog, config, f.domain_type)
    ]


def mark_entry_points(catalog: Catalog, config: BuildConfig) -> None:
    """Set ``api.entry_point`` on every API (never on dropped ones); record ``stats["entry_points"]``."""
    count = without_required = 0
    for api in catalog.apis.values():
        if api.entry_point:  # written only when it changes: a write dirties a page a forked child shares
            api.entry_point = False
    for api in catalog.kept_apis():
        if blocking_inputs(api, catalog, config):
            continue
        api.entry_point = True
        count += 1
        if not any(f.required for f in input_fields(api)):
            without_required += 1
    catalog.stats["entry_points"] = {
        "entry_points": count,
        "without_required_inputs": without_required,
        "kept_apis": len(catalog.kept_apis()),
    }


def entry_points(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Runs after types: a field's user-value class comes from the merged type map."""
    mark_entry_points(catalog, config)
    context.progress(f"entry points: {catalog.stats['entry_points']['entry_points']} APIs")
