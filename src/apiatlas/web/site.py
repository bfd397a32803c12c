"""What one reader of the web pages sees: the navigator and planner over their view of the snapshot, the
catalog's funnel counts per business object, and the reports (only for a reader who sees every API)."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apiatlas.catalog.model import Api
from apiatlas.errors import ConfigError, Location
from apiatlas.server.config import ServerConfig
from apiatlas.server.navigation import Navigator
from apiatlas.server.planning import ChainPlanning
from apiatlas.snapshot import CatalogReader, Snapshot

if TYPE_CHECKING:
    from apiatlas.assistant.workflow import Assistant

ALL_OBJECTS = 1_000_000
NO_EXECUTOR = (
    "Asking needs an executor: start the pages with --db URL (a SQL snapshot) or --upstream URL "
    "(a REST snapshot), or serve the snapshot with one. The other pages need none."
)


@dataclass(frozen=True)
class ApiRow:
    """What an object's list shows of one API (kept once per site: decoding every body is slow)."""

    key: str
    title: str
    side_effect: str
    entry_point: bool
    kept: bool
    dropped_at: str | None
    reason: str | None

    @classmethod
    def of(cls, api: Api) -> ApiRow:
        verdict = api.funnel
        stage = None if verdict.kept else (verdict.dropped_at or "funnel")
        return cls(
            api.key, api.title, api.side_effect.value, api.entry_point, verdict.kept, stage, verdict.reason
        )


@dataclass(frozen=True)
class ObjectCounts:
    """One business object's APIs: kept, and dropped per funnel stage."""

    key: str
    name: str
    title: str
    kept: int
    dropped: dict[str, int]
    apis: tuple[ApiRow, ...] = ()

    @property
    def total(self) -> int:
        return self.kept + sum(self.dropped.values())


def object_counts(reader: CatalogReader) -> list[ObjectCounts]:
    """Every business object the reader sees, with its kept APIs and its dropped ones by funnel stage."""
    objects, _ = reader.list_objects(0, ALL_OBJECTS)
    rows = []
    for obj in objects:
        apis, _ = reader.list_apis(obj.key, 0, ALL_OBJECTS, include_dropped=True)
        listed = tuple(ApiRow.of(a) for a in apis)
        dropped = Counter(a.dropped_at for a in listed if a.dropped_at)
        kept = sum(1 for a in listed if a.kept)
        rows.append(ObjectCounts(obj.key, obj.name, obj.title, kept, dict(sorted(dropped.items())), listed))
    return rows


def default_drift_path(snapshot: Path) -> Path:
    """``bank.atlas`` -> ``bank.drift.json`` next to it (``apiatlas drift -o bank.drift.md`` writes it)."""
    return snapshot.with_name(snapshot.stem + ".drift.json")


@dataclass
class Reports:
    """The whole snapshot's reports: compile report (rendered from the snapshot), drift report, manifest."""

    snapshot: Snapshot
    drift_path: Path | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _compile: str | None = None

    def compile_markdown(self) -> str:
        """The compile report as ``apiatlas compile`` writes it (without the stage timings), built once."""
        with self._lock:
            if self._compile is None:
                from apiatlas.report import render_report

                self._compile = render_report(self.snapshot)
            return self._compile

    def drift_markdown(self) -> str | None:
        """The drift report next to the snapshot (its JSON), rendered; None when there is none."""
        from apiatlas.drift import DriftReport, render_drift_markdown

        path = self.drift_path or default_drift_path(self.snapshot.path)
        if not path.is_file():
            return None
        try:
            report = DriftReport.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise ConfigError(f"not a drift report (JSON): {exc}", location=Location(file=str(path))) from exc
        return render_drift_markdown(report)

    def drift_location(self) -> Path:
        return self.drift_path or default_drift_path(self.snapshot.path)

    def manifest(self) -> dict[str, Any]:
        return self.snapshot.manifest()


@dataclass
class WebSite:
    """The pages' core for one reader: ``reports`` None means this reader sees only part of the catalog
    (a role), so the whole-catalog reports are not shown to it."""

    navigator: Navigator
    planning: ChainPlanning
    reports: Reports | None = None
    role: str | None = None
    runs_on: str | None = None  # the executor's URL, without credentials (shown; the pages run nothing)
    tools: frozenset[str] | None = None  # the tools the reader's role is granted (None: every tool)
    assistant: Assistant | None = None  # the Ask page's assistant (None: no executor to ask with)
    ask_unavailable: str = NO_EXECUTOR
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def over(
        cls, reader: CatalogReader, config: ServerConfig, reports: Reports | None, role: str | None = None
    ) -> WebSite:
        navigator = Navigator(reader, config, config.prefix_for(reader.manifest()))
        return cls(navigator, ChainPlanning(navigator), reports, role)

    @classmethod
    def of_navigator(cls, navigator: Navigator, reports: Reports | None, role: str | None = None) -> WebSite:
        """The pages over a server's own navigator (``apiatlas serve``: one search index for both)."""
        return cls(navigator, ChainPlanning(navigator), reports, role)

    def allows(self, tool: str | None) -> bool:
        """Whether the reader may see a page answering like ``tool`` (its role's grant; None: no tool)."""
        return tool is None or self.tools is None or tool in self.tools

    @property
    def reader(self) -> CatalogReader:
        return self.navigator.snapshot

    @cached_property
    def _objects(self) -> list[ObjectCounts]:
        return object_counts(self.reader)

    def objects(self) -> list[ObjectCounts]:
        """The catalog's objects with their counts, computed once (the snapshot never changes)."""
        with self._lock:
            return self._objects

    def object_counts(self, key: str) -> ObjectCounts | None:
        return next((row for row in self.objects() if row.key == key), None)

    def catalog_name(self) -> str:
        manifest = self.reader.manifest()
        return f"{manifest.get('source_kind') or 'catalog'} · {self.reader.path.name}"

    def warm(self) -> None:
        """Do before the first reader what the first catalog page and search would do."""
        self.objects()
        from apiatlas.server.app import warm_up_query

        query = warm_up_query(self.reader)
        self.navigator.search(query, None, 1)  # the search index and the query encoder
        self.planning.plan_chain(query, None, {}, limit=1)  # the planner's caches
        if self.reports is not None:
            self.reports.compile_markdown()
