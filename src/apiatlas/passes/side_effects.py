"""The side-effects pass: the build config's per-API side-effect classes override what the source said."""

from __future__ import annotations

from apiatlas.catalog.model import Catalog
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext


def apply_side_effects(catalog: Catalog, config: BuildConfig) -> int:
    """Set the configured class on each API named by key or ``operationId``; returns how many changed."""
    if not config.side_effects:
        return 0
    by_operation_id = {
        str(api.extra["operation_id"]): api for api in catalog.apis.values() if api.extra.get("operation_id")
    }
    changed = 0
    for name, effect in sorted(config.side_effects.items()):
        api = catalog.apis.get(name) or by_operation_id.get(name)
        if api is None:
            catalog.add_diagnostic(
                Diagnostic(
                    severity=Severity.WARNING,
                    code=ReasonCode.OVERLAY_UNMATCHED,
                    message=f"side_effects: no API or operationId {name!r}",
                    location=Location(anchor=f"side_effects.{name}"),
                )
            )
            continue
        if api.side_effect is not effect:
            api.side_effect = effect
            changed += 1
    catalog.stats["side_effect_overrides"] = changed
    return changed


def side_effects(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Runs before the funnel, so a funnel rule on ``side_effect`` sees the operator's word."""
    changed = apply_side_effects(catalog, config)
    if config.side_effects:
        context.progress(f"side effects: {changed} API(s) reclassified by the config")
