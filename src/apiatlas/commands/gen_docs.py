"""``apiatlas gen-docs``: write the sample bank or a seeded bank documentation set of any size."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError
from apiatlas.samples.docs_writer import build_doc_set, page_count, write_docs

OUT_ARG = typer.Argument(..., help="Folder to write the documentation set into (must be new or empty).")
APIS_OPT = typer.Option(3158, "--apis", min=1, help="Number of APIs (3158 = the real system's size).")
SEED_OPT = typer.Option(0, "--seed", help="Seed of the generator; the same seed gives byte-identical files.")
SAMPLE_OPT = typer.Option(
    False, "--sample", help="Write the curated sample bank instead (ignores --apis/--seed)."
)
OVERLAYS_OPT = typer.Option(
    False, "--overlays", help="Also write the hand-written overlays (into OUT/overlays)."
)
OVERLAYS_DIR_OPT = typer.Option(
    None, "--overlays-dir", help="Write overlays into this folder (implies --overlays)."
)
FORCE_OPT = typer.Option(False, "--force", help="Replace the generated pages of a non-empty OUT.")


@app.command("gen-docs")
def gen_docs(
    out: Path = OUT_ARG,
    apis: int = APIS_OPT,
    seed: int = SEED_OPT,
    sample: bool = SAMPLE_OPT,
    overlays: bool = OVERLAYS_OPT,
    overlays_dir: Path | None = OVERLAYS_DIR_OPT,
    force: bool = FORCE_OPT,
) -> None:
    """Generate bank HTML documentation (windows-1251) in the format of docs/formats/bank-html.md.

    Use when you need test or benchmark input: `--sample` writes the curated sample bank
    (`apiatlas gen-docs examples/bank/docs --sample --overlays-dir examples/bank/overlays --force`
    regenerates the committed copy); otherwise a seeded set of `--apis` APIs in the real system's
    proportions (3,158 APIs -> 264 objects, 7,807 table pages) that always includes the core APIs.
    """
    console = Console(stderr=True)
    started = time.perf_counter()
    if overlays and overlays_dir is None:
        overlays_dir = out / "overlays"
    try:
        doc = build_doc_set(None if sample else apis, seed)
        with Progress(
            TextColumn("[bold]writing pages"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task("pages", total=page_count(doc))
            stats, n_overlays = write_docs(
                doc, out, overlays_dir=overlays_dir, force=force, advance=lambda n: progress.advance(task, n)
            )
    except ApiatlasError as exc:
        console.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(code=2) from exc
    elapsed = time.perf_counter() - started
    kept = doc.kept_count()
    typer.echo(
        f"{out}: {stats.objects} business objects, {stats.apis} APIs ({kept} pass the funnel), "
        f"{stats.tables} table pages, {stats.type_pages} type page"
        + (f", {n_overlays} overlays in {overlays_dir}" if overlays_dir is not None else "")
        + f" — {stats.files} files in {elapsed:.1f}s"
    )
