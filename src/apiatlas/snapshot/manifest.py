"""The snapshot manifest: what a snapshot was built from and its build figures (funnel, graph, counts)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from apiatlas import __version__
from apiatlas.catalog.model import EDGE_LEVEL_RANK, Catalog, Edge, EdgeLevel
from apiatlas.errors import Severity
from apiatlas.snapshot.schema import FORMAT_VERSION

# Funnel stages in the order the bank funnel applies them; stages a pass names otherwise follow.
KNOWN_STAGE_ORDER = ("kind", "name", "prefix", "visa", "approved", "implemented", "forbidden", "side_effect")
# how a snapshot's APIs are executed: "sql" on the operator's database (--db URL), "http" on the
# upstream API (--upstream URL); a format with neither is served for navigation and search only
ExecutorKind = Literal["sql", "http"]
Surface = Literal["api", "code"]  # what a snapshot is: APIs to call, or an SDK's code to write against
NEUTRAL_PREFIX = "atlas_"


class Serving(BaseModel):
    """What serving a snapshot needs to know about its source, written at compile time by its format,
    so that run time never imports the source's code."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool_prefix: str = NEUTRAL_PREFIX
    executor: ExecutorKind | None = None
    display_name: str = "catalog"
    surface: Surface = "api"  # "code": served with the code tools (read_source, check_code), no execution

    def no_executor_reason(self) -> str:
        """Why an API cannot be executed when the server was started without an executor."""
        if self.executor == "http":
            return (
                "no upstream API is configured for this server, so APIs cannot be executed; "
                "the operator starts it with --upstream URL (or upstream.base_url in the server config)"
            )
        if self.executor == "sql":
            return (
                "no database is configured for this server, so APIs cannot be executed; "
                "the operator starts it with --db URL (or APIATLAS_DB_URL)"
            )
        return "this snapshot's source has no executor: its APIs can be navigated and searched, not called"


class Manifest(BaseModel):
    """The manifest table of a snapshot, one field per key (values stored as JSON)."""

    model_config = ConfigDict(extra="allow")

    format_version: int = FORMAT_VERSION
    apiatlas_version: str = __version__
    source_kind: str = ""
    source_root: str = ""
    options: dict[str, Any] = Field(default_factory=dict)
    source_files: dict[str, Any] = Field(default_factory=dict)  # {"count", "sha256"}; files: own table
    funnel: dict[str, Any] = Field(default_factory=dict)
    graph: dict[str, Any] = Field(default_factory=dict)
    counts: dict[str, int] = Field(default_factory=dict)
    pass_stats: dict[str, Any] = Field(default_factory=dict)  # what each pass recorded (catalog.stats)
    serving: Serving | None = None  # None in snapshots written before issue 17: see serving_of


def serving_of(manifest: Mapping[str, Any]) -> Serving:
    """The serving facts of a snapshot: its manifest's, else (older snapshots) those of the registered
    format of its ``source_kind``, else neutral."""
    recorded = manifest.get("serving")
    if isinstance(recorded, Mapping):
        return Serving.model_validate(dict(recorded))
    from apiatlas.sources import source_format  # only for snapshots that predate the serving section

    return source_format(str(manifest.get("source_kind") or "")).serving()


def kept_edges(catalog: Catalog) -> list[Edge]:
    """Edges whose both ends are kept APIs, in a fixed order (strongest level first)."""
    kept = {k for k, a in catalog.apis.items() if a.funnel.kept}
    edges = [e for e in catalog.edges if e.producer in kept and e.consumer in kept]
    return sorted(edges, key=_edge_order)


def _edge_order(e: Edge) -> tuple[str, str, int, str, str, str, str, str]:
    return (
        e.consumer,
        e.producer,
        EDGE_LEVEL_RANK[e.level],
        e.consumer_table or "",
        e.consumer_field,
        e.producer_table or "",
        e.producer_field,
        e.reason,
    )


def funnel_summary(catalog: Catalog) -> dict[str, Any]:
    """Stage-by-stage counts: ``{"total", "kept", "stages": [{"stage", "rule", "dropped", "count"}]}``.

    The funnel pass records its stages in order in ``stats["funnel"]`` (``stage``, ``rule``, ``in``,
    ``out``); without them the stages are rebuilt from each API's verdict, in ``KNOWN_STAGE_ORDER``.
    """
    total = len(catalog.apis)
    dropped = Counter(
        a.funnel.dropped_at or "unspecified" for a in catalog.apis.values() if not a.funnel.kept
    )
    stages: list[dict[str, Any]] = [{"stage": "parsed", "rule": "", "dropped": 0, "count": total}]
    recorded = catalog.stats.get("funnel")
    if isinstance(recorded, list) and all(isinstance(s, dict) and "stage" in s for s in recorded):
        for s in recorded:
            out = int(s.get("out", 0))
            dropped_here = int(s.get("in", out)) - out
            stages.append(
                {
                    "stage": str(s["stage"]),
                    "rule": str(s.get("rule", "")),
                    "dropped": dropped_here,
                    "count": out,
                }
            )
    else:
        remaining = total
        for name in _stage_order(dropped):
            remaining -= dropped[name]
            stages.append({"stage": name, "rule": "", "dropped": dropped[name], "count": remaining})
    return {
        "total": total,
        "kept": total - sum(dropped.values()),
        "stages": stages,
        "objects_total": len(catalog.objects),
        "objects_with_kept_apis": len(_objects_with_kept(catalog)),
    }


def _stage_order(dropped: Counter[str]) -> list[str]:
    known = [s for s in KNOWN_STAGE_ORDER if s in dropped]
    rest = sorted((s for s in dropped if s not in known), key=lambda s: (-dropped[s], s))
    return known + rest


def _objects_with_kept(catalog: Catalog) -> set[str]:
    return {a.object_key for a in catalog.apis.values() if a.funnel.kept and a.object_key}


def graph_summary(catalog: Catalog, edges: list[Edge]) -> dict[str, Any]:
    """Edge counts by level (``edges``: the catalog's ``kept_edges``), entry points, and the APIs that
    nothing feeds."""
    by_level = Counter(e.level.value for e in edges)
    kept = catalog.kept_apis()
    consumers = {e.consumer for e in edges}
    return {
        "edges": len(edges),
        "by_level": {lvl.value: by_level.get(lvl.value, 0) for lvl in EdgeLevel},
        "entry_points": sum(1 for a in kept if a.entry_point),
        "apis_with_producers": len(consumers),
        "apis_without_producers": sum(1 for a in kept if a.key not in consumers),
    }


def count_summary(catalog: Catalog, edges: list[Edge]) -> dict[str, int]:
    """Flat counts of everything in the snapshot (``edges``: the catalog's ``kept_edges``)."""
    kept = catalog.kept_apis()
    severities = Counter(d.severity.value for d in catalog.diagnostics)
    counts = {
        "objects": len(catalog.objects),
        "objects_with_kept_apis": len(_objects_with_kept(catalog)),
        "apis": len(catalog.apis),
        "kept_apis": len(kept),
        "tables": sum(len(a.input_tables) + len(a.output_tables) for a in catalog.apis.values()),
        "types": len(catalog.types),
        "edges": len(edges),
        "entry_points": sum(1 for a in kept if a.entry_point),
        "playbooks": len(catalog.playbooks),
        "source_files": len(catalog.source_files),
    }
    for sev in Severity:
        counts[f"diagnostics_{sev.value}"] = severities.get(sev.value, 0)
    return counts


def source_files_summary(files: dict[str, str]) -> dict[str, Any]:
    """How many source files and one sha256 over all of them (path and hash, in path order)."""
    digest = hashlib.sha256()
    for path, sha in sorted(files.items()):
        digest.update(f"{path}\t{sha}\n".encode())
    return {"count": len(files), "sha256": digest.hexdigest()}


def build_manifest(catalog: Catalog, options: dict[str, Any], edges: list[Edge] | None = None) -> Manifest:
    """The manifest of ``catalog`` built with ``options`` (``source_root`` is taken from them, as given);
    its ``serving`` section comes from the format registered for ``catalog.source_kind`` (compile time).
    ``edges`` are the catalog's ``kept_edges`` when the caller has them already (sorting them is the
    manifest's largest cost)."""
    from apiatlas.sources import source_format

    if edges is None:
        edges = kept_edges(catalog)
    source_root = options.get("source_root", options.get("source", ""))
    return Manifest(
        source_kind=catalog.source_kind,
        source_root=str(source_root or ""),
        options=dict(options),
        source_files=source_files_summary(catalog.source_files),
        funnel=funnel_summary(catalog),
        graph=graph_summary(catalog, edges),
        counts=count_summary(catalog, edges),
        pass_stats=dict(sorted(catalog.stats.items())),
        serving=source_format(catalog.source_kind).serving(),
    )
