"""The compile report in Markdown: summary, funnel and chains as Mermaid, edges, entry points, diagnostics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from apiatlas.catalog.model import EDGE_LEVEL_RANK, EdgeLevel
from apiatlas.errors import Diagnostic
from apiatlas.report.chains import CHAIN_MAX_RANK, Chain, DependencyGraph, chains_to, deepest_chains
from apiatlas.snapshot.reader import Snapshot

if TYPE_CHECKING:
    from apiatlas.snapshot.edge_arrays import EdgeArrays

MAX_LOCATIONS_PER_CODE = 15
MAX_ENTRY_POINTS_LISTED = 40
TOP_OBJECTS = 15

LEVEL_MEANING = {
    EdgeLevel.DECLARED: "stated in the docs or an overlay",
    EdgeLevel.NAME_TYPE: "same field name and domain type",
    EdgeLevel.ALIAS: "different name, same type, tied by a description or alias rule",
    EdgeLevel.TYPE_ONLY: "same specific domain type only",
    EdgeLevel.CO_USAGE: "called one after the other in the SDK's own method bodies",
}


def render_report(
    snap: Snapshot,
    *,
    timings: dict[str, float] | None = None,
    featured: str | None = None,
    edges: EdgeArrays | None = None,
) -> str:
    """The whole report for ``snap`` (``timings``: seconds per compile stage, when known).

    ``featured``: the API whose chains are drawn first (None: the ``featured_api`` of the format
    registered for the snapshot's source kind, if any). ``edges``: ``snap.edge_arrays(CHAIN_MAX_RANK)``
    when the caller has them already (the compiler, from the writer: not read back).
    """
    manifest = snap.manifest()
    if featured is None:
        from apiatlas.sources import source_format

        featured = source_format(str(manifest.get("source_kind") or "")).featured_api
    graph = DependencyGraph.from_arrays(edges if edges is not None else snap.edge_arrays(CHAIN_MAX_RANK))
    entry_points = set(snap.entry_points())
    sections = [
        _summary(manifest, timings),
        _funnel(manifest.get("funnel", {})),
        _edges(manifest.get("graph", {})) + _edge_cap(manifest.get("pass_stats", {}).get("graph", {})),
        _entry_points(snap, sorted(entry_points), graph),
        _top_objects(snap, graph),
        _chains(snap, graph, entry_points, featured),
        _diagnostics(snap.diagnostics()),
    ]
    return "\n\n".join(s.rstrip() for s in sections) + "\n"


def _table(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _label(text: str) -> str:
    """Text safe inside a quoted Mermaid label."""
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def _summary(manifest: dict[str, Any], timings: dict[str, float] | None) -> str:
    counts = manifest.get("counts", {})
    rows = [
        ("source", f"`{manifest.get('source_root', '')}` ({manifest.get('source_kind', '')})"),
        ("apiatlas version", manifest.get("apiatlas_version", "")),
        ("snapshot format", manifest.get("format_version", "")),
        ("source files", counts.get("source_files", 0)),
        (
            "business objects (with kept APIs / all)",
            f"{counts.get('objects_with_kept_apis', 0)} / {counts.get('objects', 0)}",
        ),
        ("APIs (kept / parsed)", f"{counts.get('kept_apis', 0)} / {counts.get('apis', 0)}"),
        ("session tables", counts.get("tables", 0)),
        ("domain types", counts.get("types", 0)),
        ("dependency edges (between kept APIs)", counts.get("edges", 0)),
        ("entry points", counts.get("entry_points", 0)),
        (
            "diagnostics (error / warning / info)",
            f"{counts.get('diagnostics_error', 0)} / {counts.get('diagnostics_warning', 0)} / "
            f"{counts.get('diagnostics_info', 0)}",
        ),
    ]
    out = "# Compile report\n\n## Summary\n\n" + _table(["", "value"], rows)
    if timings:
        total = sum(timings.values())
        out += "\n\nTime per stage: " + ", ".join(f"{k} {v:.2f} s" for k, v in timings.items())
        out += f" (total {total:.2f} s)."
    return out


def _funnel(funnel: dict[str, Any]) -> str:
    stages: list[dict[str, Any]] = funnel.get("stages", [])
    out = "## Funnel\n\n"
    if not stages:
        return out + "No funnel figures recorded."
    lines = ["```mermaid", "flowchart TD"]
    for i, stage in enumerate(stages):
        lines.append(f'    s{i}["{_label(stage["stage"])}<br/>{stage["count"]} APIs"]')
        if i:
            rule = stage.get("rule") or stage["stage"]
            lines.append(f'    s{i - 1} -->|"{_label(rule)} (−{stage["dropped"]})"| s{i}')
    lines.append("```")
    rows = [(s["stage"], s.get("rule", ""), s["dropped"], s["count"]) for s in stages]
    return out + "\n".join(lines) + "\n\n" + _table(["stage", "rule", "dropped", "remaining"], rows)


def _edges(graph: dict[str, Any]) -> str:
    by_level = graph.get("by_level", {})
    rows: list[tuple[Any, ...]] = [
        (lvl.value, EDGE_LEVEL_RANK[lvl], by_level.get(lvl.value, 0), LEVEL_MEANING[lvl]) for lvl in EdgeLevel
    ]
    rows.append(("**total**", "", graph.get("edges", 0), ""))
    note = (
        f"\n\n{graph.get('apis_with_producers', 0)} kept APIs have at least one producer; "
        f"{graph.get('apis_without_producers', 0)} have none."
    )
    return "## Dependency edges by level\n\n" + _table(["level", "rank", "edges", "meaning"], rows) + note


def _edge_cap(stats: dict[str, Any]) -> str:
    """What the per-field cap of the graph pass dropped (nothing when no field reached it)."""
    caps: dict[str, int | None] = stats.get("cap_per_field", {})
    fields: dict[str, int] = stats.get("capped_fields", {})
    if not caps:
        return ""
    dropped: dict[str, int] = stats.get("capped_candidates", {})
    rows = [
        (level, cap if cap is not None else "none", fields.get(level, 0), dropped.get(level, 0))
        for level, cap in caps.items()
    ]
    return (
        "\n\nEach consumer field keeps at most the cap's strongest producers per level (own business object "
        "first, then those needing fewer inputs):\n\n"
        + _table(["level", "cap per field", "fields at the cap", "candidates dropped (at most)"], rows)
    )


def _entry_points(snap: Snapshot, keys: list[str], graph: DependencyGraph) -> str:
    out = (
        f"## Entry points\n\n{len(keys)} kept APIs can be called from values a person knows "
        "(names, dates, numbers)."
    )
    if not keys:
        return out
    ranked = sorted(keys, key=lambda k: (-graph.fan_out(k), k))[:MAX_ENTRY_POINTS_LISTED]
    rows = []
    for key in ranked:
        api = snap.get_api(key)
        rows.append((f"`{key}`", api.object_key if api else "", api.title if api else "", graph.fan_out(key)))
    more = len(keys) - len(ranked)
    tail = f"\n\n… and {more} more (see `apiatlas info`)." if more > 0 else ""
    return out + " Most connected first:\n\n" + _table(["API", "object", "title", "feeds APIs"], rows) + tail


def _top_objects(snap: Snapshot, graph: DependencyGraph) -> str:
    counts = snap.object_api_counts()
    ranked = sorted((k for k, n in counts.items() if n), key=lambda k: (-counts[k], k))[:TOP_OBJECTS]
    rows = []
    for key in ranked:
        obj = snap.get_object(key)
        feeds = sum(graph.fan_out(api) for api in snap.object_api_keys(key, limit=10_000))
        rows.append((f"`{key}`", obj.name if obj else "", obj.title if obj else "", counts[key], feeds))
    return "## Top business objects\n\n" + _table(
        ["key", "name", "purpose", "kept APIs", "outgoing edges"], rows
    )


def _chains(snap: Snapshot, graph: DependencyGraph, entry_points: set[str], featured: str | None) -> str:
    out = ["## Main chains"]
    target = snap.get_api(featured) if featured else None
    if target is not None and target.funnel.kept:
        objects = {key: snap.api_object(key) for key in entry_points}
        drawn = chains_to(graph, target.key, entry_points, object_of=objects)
        out.append(f"### Chains to `{target.key}`")
        out.append(
            "The shortest chain from the nearest entry point of each business object that reaches it."
            if drawn
            else "No chain from an entry point reaches it."
        )
        if drawn:
            out.append(_mermaid(drawn))
            out.append("\n".join("- " + " → ".join(f"`{a}`" for a in c.apis) for c in drawn))
    deepest = deepest_chains(graph, entry_points)
    out.append("### Deepest chains from the most-connected entry points")
    out.append(_mermaid(deepest) if deepest else "No chains: no entry point feeds another API.")
    if deepest:
        out.append("\n".join("- " + " → ".join(f"`{a}`" for a in c.apis) for c in deepest))
    return "\n\n".join(out)


def _mermaid(chains: list[Chain]) -> str:
    ids: dict[str, str] = {}
    lines = ["```mermaid", "graph LR"]
    drawn: set[tuple[str, str]] = set()
    for chain in chains:
        for api in chain.apis:
            if api not in ids:
                ids[api] = f"a{len(ids)}"
                lines.append(f'    {ids[api]}["{_label(api)}"]')
        for e in chain.edges:
            if (e.producer, e.consumer) in drawn:
                continue
            drawn.add((e.producer, e.consumer))
            label = f"{e.producer_field} → {e.consumer_field} ({e.level.value})"
            lines.append(f'    {ids[e.producer]} -->|"{_label(label)}"| {ids[e.consumer]}')
    lines.append("```")
    return "\n".join(lines)


def _diagnostics(diagnostics: list[Diagnostic]) -> str:
    out = ["## Diagnostics"]
    if not diagnostics:
        return "## Diagnostics\n\nNone."
    by_code: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_code.setdefault(d.code.value, []).append(d)
    severities = Counter(d.severity.value for d in diagnostics)
    out.append(", ".join(f"{n} {sev}" for sev, n in sorted(severities.items())) + ".")
    for code, items in sorted(by_code.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        out.append(f"### {code} ({items[0].severity.value}, {len(items)})")
        shown = [f"- `{d.location}` — {d.message}" for d in items[:MAX_LOCATIONS_PER_CODE]]
        if len(items) > MAX_LOCATIONS_PER_CODE:
            shown.append(f"- … and {len(items) - MAX_LOCATIONS_PER_CODE} more")
        out.append("\n".join(shown))
    return "\n\n".join(out)
