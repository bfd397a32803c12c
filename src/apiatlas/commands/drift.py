"""``apiatlas drift``: docs + database catalog -> drift report (Markdown + JSON), merged snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from apiatlas.catalog.model import Catalog
from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError


@app.command("drift")
def drift_command(
    docs: Annotated[Path, typer.Argument(help="The documentation source (e.g. examples/bank/docs).")],
    catalog: Annotated[
        str, typer.Argument(help="The database: postgresql://user@host/db[#include=api] or a .sql folder.")
    ],
    out: Annotated[
        Path, typer.Option("-o", "--out", help="Report path (Markdown; JSON written next to it).")
    ],
    snapshot: Annotated[
        Path | None, typer.Option("--snapshot", help="Also write the merged catalog as a snapshot here.")
    ] = None,
) -> None:
    """Compare documentation with the database it documents and write the drift report."""
    from apiatlas.drift import merge_with_catalog, write_drift_report
    from apiatlas.sources import load_source

    try:
        documented = load_source(docs)
        database = load_source(Path(catalog)) if "://" not in catalog else _load_url(catalog)
        merged, report = merge_with_catalog(documented, database)
        report.docs_source, report.catalog_source = str(docs), catalog.split("#")[0]
        markdown, as_json = write_drift_report(report, out)
        if snapshot is not None:
            from apiatlas.passes import PASSES, run_passes
            from apiatlas.passes.config import BuildConfig
            from apiatlas.snapshot import write_snapshot

            # every pass but the index: the writer builds the lexical index the drift snapshot has
            run_passes(merged, BuildConfig.for_source(merged.source_kind), passes=PASSES[:-1])
            write_snapshot(merged, snapshot, options={"source": str(docs), "catalog": report.catalog_source})
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    typer.echo(
        f"{len(report.cases)} drift case(s): "
        + ", ".join(f"{k} {n}" for k, n in report.by_kind().items() if n)
    )
    typer.echo(f"Report {markdown} and {as_json}")


def _load_url(url: str) -> Catalog:
    from apiatlas.sources.postgres import load_pg_catalog

    return load_pg_catalog(url)
