"""The overlays pass: merge operator overlays over their APIs; their dependencies become declared sources."""

from __future__ import annotations

from apiatlas.catalog.model import Api, Catalog, Overlay
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext


def _find_api(catalog: Catalog, key: str, folded: dict[str, str]) -> Api | None:
    api = catalog.apis.get(key)
    if api is None and key.casefold() in folded:
        api = catalog.apis[folded[key.casefold()]]
    return api


def merge_overlays(catalog: Catalog, overlays: dict[str, Overlay]) -> None:
    """Attach each overlay to its API and record ``stats["overlays"]``; unknown APIs are warnings."""
    folded = {key.casefold(): key for key in catalog.apis}
    merged = unmatched = added = 0
    for key in sorted(overlays):
        overlay = overlays[key]
        api = _find_api(catalog, key, folded)
        if api is None:
            unmatched += 1
            where = overlay.source or Location(anchor=key)
            catalog.add_diagnostic(
                Diagnostic(
                    severity=Severity.WARNING,
                    code=ReasonCode.OVERLAY_UNMATCHED,
                    message=f"overlay for {key!r} names no API in the documentation",
                    location=where if where.anchor else where.model_copy(update={"anchor": key}),
                )
            )
            continue
        api.overlay = overlay
        merged += 1
        for source in overlay.depends_on:
            if source not in api.declared_sources:
                api.declared_sources.append(source)
                added += 1
    catalog.stats["overlays"] = {
        "given": len(overlays),
        "merged": merged,
        "unmatched": unmatched,
        "declared_sources_added": added,
    }


def overlays(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Runs first so every later pass sees each API as the operator amended it."""
    merge_overlays(catalog, context.overlays)
    stats = catalog.stats["overlays"]
    context.progress(f"overlays: {stats['merged']} merged, {stats['unmatched']} unmatched")
