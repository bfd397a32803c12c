"""Proposes the operations worth exposing as direct MCP tools (curated mode), each with its reasons."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import Any

import yaml
from pydantic import BaseModel, Field

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.snapshot import Snapshot

MAX_NAME = 64  # some clients cut tool names at 64 characters
MAX_SENTENCE = 180
GRAPH_RANK = 3  # edges up to the alias level count for centrality (type-only links are too weak)
WEIGHTS = {"inputs": 0.3, "output": 0.3, "central": 0.2, "records": 0.1, "entry": 0.1}
RICH_OUTPUT = 100  # fields at which an output counts as fully structured
SHARE_SLACK = 1.5  # a business object may take this much more than its share of the tools


class Suggestion(BaseModel):
    """One proposed direct tool: the API, a tool name, a two-sentence description, why it was chosen."""

    api: str
    name: str
    description: str
    score: float
    reasons: list[str] = Field(default_factory=list)
    annotations: dict[str, bool] = Field(default_factory=dict)


def _words(text: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def default_tool_name(api: Api) -> str:
    """A tool name from the operationId (``listCoreV1NamespacedPod`` -> ``list_core_v1_namespaced_pod``).

    Without one: the method and path (``GET /person/{person_id}`` -> ``get_person_by_person_id``), or the key.
    """
    operation = api.extra.get("operationId") or api.extra.get("operation_id")
    if isinstance(operation, str) and operation.strip():
        words = _words(operation)
    elif api.executor.kind == "http" and " " in api.key:
        method, path = api.key.split(" ", 1)
        fixed = [s for s in path.split("/") if s and not s.startswith("{")]
        params = [s.strip("{}") for s in path.split("/") if s.startswith("{")]
        words = _words(method) + [w for s in fixed for w in _words(s)]
        if params:
            words += ["by", *_words(params[-1])]
    else:
        words = _words(api.key)
    name = "_".join(words) or "call_api"
    return name[:MAX_NAME].rstrip("_")


def _sentence(text: str) -> str:
    text = " ".join(text.split()).strip()
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0].rstrip(" .")
    if len(first) > MAX_SENTENCE:
        first = first[: MAX_SENTENCE - 1].rsplit(" ", 1)[0] + "…"
    return (first[:1].upper() + first[1:]) if first else ""


def default_description(api: Api) -> str:
    """Two sentences: what the operation does (its summary), then ``Use when …``."""
    what = _sentence(api.title) or _sentence(api.description) or f"Calls {api.key}"
    when = api.overlay.when_to_use[0] if api.overlay and api.overlay.when_to_use else ""
    if when:
        second = _sentence(when)
        if not second.lower().startswith("use when"):
            second = "Use when " + second[:1].lower() + second[1:]
    else:
        required = [p.name for p in api.params if p.required]
        second = f"Use when you need {api.object_key or 'this'} data" + (
            f" and know {', '.join(required[:3])}" if required else ""
        )
    return f"{what}. {second.rstrip('.')}."


def suggested_annotations(api: Api) -> dict[str, bool]:
    """The API's annotations; an HTTP operation reaches a system outside this server (open world)."""
    return {**api.annotations(), "openWorldHint": api.executor.kind == "http"}


def _structured(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return bool({"object", "array"} & set(kinds)) or "properties" in schema or "items" in schema


def _deprecated(api: Api) -> bool:
    flagged = api.extra.get("deprecated") is True
    return flagged or "deprecated" in f"{api.title} {api.description[:300]}".lower()


def _inputs(api: Api) -> tuple[float, str]:
    required = [p for p in api.params if p.required]
    structured_required = [p for p in required if _structured(p.json_schema)]
    structured_optional = [p for p in api.params if not p.required and _structured(p.json_schema)]
    score = 1.0 - 0.15 * len(required) - 0.005 * len(api.params) - 0.3 * len(structured_required)
    score -= 0.05 * len(structured_optional) + 0.5 * len(api.input_tables)
    score = max(0.0, min(1.0, score))
    if not required and not api.input_tables:
        return score, "simple inputs: nothing required"
    named = ", ".join(p.name for p in required[:3]) + ("…" if len(required) > 3 else "")
    kind = "simple inputs" if score >= 0.5 else "inputs"
    return score, f"{kind}: {len(required)} required ({named})" + (
        f", {len(api.input_tables)} input tables" if api.input_tables else ""
    )


def _output(api: Api) -> tuple[float, str | None]:
    fields = sum(len(t.columns) for t in api.output_tables)
    if not fields:
        return 0.0, None
    score = min(1.0, math.log1p(fields) / math.log1p(RICH_OUTPUT))
    return score, f"structured output: {fields} field{'s' if fields > 1 else ''}"


def _records(api: Api) -> bool:
    """Whether the output is a list of records (``items[].name``): where an agent usually starts."""
    return any("[]." in c.name for t in api.output_tables for c in t.columns)


_PRE_RELEASE = re.compile(r"/v\d+(?:alpha|beta)\d*/")


def _pre_release(api: Api) -> bool:
    """An alpha or beta API version (``/v1beta2/``): the stable one is the better tool."""
    return api.executor.kind == "http" and _PRE_RELEASE.search(api.executor.target) is not None


def _index_endpoint(api: Api) -> bool:
    """A REST index (``GET /apis/apps/``): lists what exists, rarely what a user asks for."""
    return api.executor.kind == "http" and api.executor.target.rstrip().endswith("/")


def suggest_curated(snapshot: Snapshot, max_tools: int) -> list[Suggestion]:
    """Up to ``max_tools`` read-only APIs, best first: simple inputs, structured output, central in the graph.

    Business objects share the list by their size (a cap, lifted when too few candidates are left), so
    the tools cover the API instead of one busy corner of it; deprecated and index operations rank down.
    """
    consumers: dict[str, set[str]] = defaultdict(set)
    producers: dict[str, set[str]] = defaultdict(set)
    for edge in snapshot.all_edges(min_rank=GRAPH_RANK):
        if edge.producer != edge.consumer:
            consumers[edge.producer].add(edge.consumer)
            producers[edge.consumer].add(edge.producer)
    candidates: list[Api] = []
    for key in snapshot.all_api_keys():
        api = snapshot.get_api(key)
        if api is None or api.side_effect is not SideEffect.READ or api.forbidden or api.implemented is False:
            continue
        candidates.append(api)
    degree = {a.key: len(consumers[a.key]) + len(producers[a.key]) for a in candidates}
    ranked = sorted(degree.values())
    top = ranked[int(0.9 * (len(ranked) - 1))] if ranked else 0  # the 90th percentile: hubs do not dwarf all
    scored: list[Suggestion] = []
    for api in candidates:
        inputs, inputs_reason = _inputs(api)
        output, output_reason = _output(api)
        central = min(1.0, math.log1p(degree[api.key]) / math.log1p(top)) if top else 0.0
        records = _records(api)
        method = api.executor.target.split(" ", 1)[0] if api.executor.kind == "http" else ""
        reasons = [f"read-only ({method})" if method else "read-only", inputs_reason]
        if output_reason:
            reasons.append(output_reason)
        if degree[api.key]:
            reasons.append(
                f"central in the graph: feeds {len(consumers[api.key])} APIs, "
                f"fed by {len(producers[api.key])}"
            )
        if records:
            reasons.append("returns a list of records")
        if api.entry_point:
            reasons.append("entry point: callable with values a user can say")
        score = (
            WEIGHTS["inputs"] * inputs
            + WEIGHTS["output"] * output
            + WEIGHTS["central"] * central
            + WEIGHTS["records"] * float(records)
            + WEIGHTS["entry"] * float(api.entry_point)
        )
        if _deprecated(api):
            score *= 0.3
            reasons.append("deprecated (ranked down)")
        if _pre_release(api):
            score *= 0.85
            reasons.append("alpha/beta API version (ranked down)")
        if _index_endpoint(api):
            score *= 0.5
            reasons.append("index endpoint (ranked down)")
        scored.append(
            Suggestion(
                api=api.key,
                name=default_tool_name(api),
                description=default_description(api),
                score=round(score, 4),
                reasons=reasons,
                annotations=suggested_annotations(api),
            )
        )
    scored.sort(key=lambda s: (-s.score, s.api))
    chosen = _spread(scored, {a.key: a.object_key for a in candidates}, max_tools)
    return _unique_names(chosen)


def _spread(scored: list[Suggestion], objects: dict[str, str], max_tools: int) -> list[Suggestion]:
    """Best first, each business object capped near its share of the APIs; caps lifted to fill the rest."""
    if max_tools <= 0:
        return []
    sizes: dict[str, int] = defaultdict(int)
    for obj in objects.values():
        sizes[obj] += 1
    total = max(1, len(objects))
    cap = {obj: max(1, math.ceil(SHARE_SLACK * max_tools * n / total)) for obj, n in sizes.items()}
    taken: list[Suggestion] = []
    per_object: dict[str, int] = defaultdict(int)
    for item in scored:
        if len(taken) >= max_tools:
            break
        obj = objects.get(item.api, "")
        if per_object[obj] < cap.get(obj, 1):
            per_object[obj] += 1
            taken.append(item)
    if len(taken) < max_tools:
        chosen = {s.api for s in taken}
        taken.extend([s for s in scored if s.api not in chosen][: max_tools - len(taken)])
        taken.sort(key=lambda s: (-s.score, s.api))
    return taken


def _unique_names(items: list[Suggestion]) -> list[Suggestion]:
    seen: dict[str, int] = {}
    out = []
    for item in items:
        name = item.name
        if name in seen:
            seen[name] += 1
            suffix = f"_{seen[name]}"
            name = item.name[: MAX_NAME - len(suffix)] + suffix
        seen.setdefault(name, 1)
        out.append(item.model_copy(update={"name": name}))
    return out


def curated_yaml(suggestions: list[Suggestion], header: str = "") -> str:
    """The suggestions as a curated-tools config (``apiatlas serve --curated FILE``), reasons kept."""
    body = {
        "tools": [
            {
                "api": s.api,
                "name": s.name,
                "description": s.description,
                "annotations": s.annotations,
                "score": s.score,
                "reasons": s.reasons,
            }
            for s in suggestions
        ]
    }
    text = yaml.safe_dump(body, allow_unicode=True, sort_keys=False, width=110)
    comment = "".join(f"# {line}\n" for line in header.splitlines()) if header else ""
    return comment + text
