"""The funnel pass: keep only the APIs that pass every configured stage, and count each stage."""

from __future__ import annotations

import re
from typing import Any

from apiatlas.catalog.compact import model_of_fields
from apiatlas.catalog.model import Api, Catalog, FunnelVerdict
from apiatlas.passes.config import BuildConfig, FunnelRule
from apiatlas.passes.context import PassContext


def _field_value(api: Api, rule: FunnelRule) -> Any:
    value = getattr(api, rule.field)
    return value.value if hasattr(value, "value") else value


def rule_passes(api: Api, rule: FunnelRule) -> bool:
    """Whether ``api`` satisfies ``rule`` (an unknown flag never equals ``true``)."""
    value = _field_value(api, rule)
    if rule.operator == "matches":
        return re.search(str(rule.value), "" if value is None else str(value)) is not None
    if rule.operator == "equals":
        return bool(value == rule.value)
    if rule.operator == "not_equals":
        return bool(value != rule.value)
    allowed = rule.value if isinstance(rule.value, list) else [rule.value]
    return value in allowed


def _drop_reason(api: Api, rule: FunnelRule) -> str:
    value = _field_value(api, rule)
    shown = "unknown" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return f"{rule.field} is {shown}; stage {rule.name!r} needs {rule.describe()}"


def apply_funnel(catalog: Catalog, config: BuildConfig) -> None:
    """Set every API's funnel verdict and record ``stats["funnel"]`` and ``stats["funnel_objects"]``."""
    remaining = [catalog.apis[key] for key in sorted(catalog.apis)]
    # one verdict for every kept API and one for each stage and reason: no pass changes a verdict in place
    kept = model_of_fields(FunnelVerdict, {"kept": True, "dropped_at": None, "reason": None})
    verdicts: _Verdicts = {}
    for api in remaining:
        api.funnel = kept
    stages: list[dict[str, Any]] = []
    for rule in config.funnel:
        entering = len(remaining)
        survivors: list[Api] = []
        for api in remaining:
            if rule_passes(api, rule):
                survivors.append(api)
            else:
                api.funnel = _dropped(verdicts, rule.name, _drop_reason(api, rule))
        remaining = survivors
        stages.append({"stage": rule.name, "rule": rule.describe(), "in": entering, "out": len(remaining)})
    catalog.stats["funnel"] = stages
    catalog.stats["funnel_objects"] = _object_counts(catalog)


_Verdicts = dict[tuple[str, str], FunnelVerdict]  # the dropped APIs' verdicts by stage and reason


def _dropped(verdicts: _Verdicts, stage: str, reason: str) -> FunnelVerdict:
    """The verdict of an API dropped at ``stage`` for ``reason`` (one per stage and reason)."""
    verdict = verdicts.get((stage, reason))
    if verdict is None:  # valid values: a stage's name and a text
        fields = {"kept": False, "dropped_at": stage, "reason": reason}
        verdict = verdicts[stage, reason] = model_of_fields(FunnelVerdict, fields)
    return verdict


def _object_counts(catalog: Catalog) -> dict[str, Any]:
    members: dict[str, set[str]] = {key: set(obj.api_keys) for key, obj in catalog.objects.items()}
    for api in catalog.apis.values():
        if api.object_key:
            members.setdefault(api.object_key, set()).add(api.key)
    without = sorted(
        key
        for key, api_keys in members.items()
        if not any(k in catalog.apis and catalog.apis[k].funnel.kept for k in api_keys)
    )
    return {
        "total": len(members),
        "approved": sum(1 for obj in catalog.objects.values() if obj.approved),
        "with_kept_apis": len(members) - len(without),
        "without_kept_apis": len(without),
    }


def funnel(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Keeps read-only, approved, implemented, allowed APIs (the stages come from the config)."""
    apply_funnel(catalog, config)
    stages = catalog.stats["funnel"]
    kept = stages[-1]["out"] if stages else len(catalog.apis)
    context.progress(f"funnel: {kept} of {len(catalog.apis)} APIs kept after {len(stages)} stage(s)")
