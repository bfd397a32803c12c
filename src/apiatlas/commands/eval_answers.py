"""``apiatlas eval answers``: the evidence assistant over a cases file (conversations of turns), scored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer
from rich.console import Console
from rich.table import Table

from apiatlas.commands.ask import SettingsOpt, SnapArg
from apiatlas.commands.eval_retrieval import eval_app
from apiatlas.errors import ApiatlasError

DOWN_URL = "postgresql://apiatlas@127.0.0.1:9/unreachable?connect_timeout=2"  # nothing listens on port 9


@eval_app.command("answers")
def eval_answers(
    snapshot: SnapArg,
    cases_file: Annotated[
        Path, typer.Argument(metavar="CASES.yaml", help="conversations with expected outcomes")
    ],
    db: Annotated[str | None, typer.Option("--db", help="database URL (else $APIATLAS_DB_URL)")] = None,
    upstream: Annotated[
        str | None, typer.Option("--upstream", help="REST snapshots: the API's base URL")
    ] = None,
    settings: SettingsOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Outcome accuracy, API/fact recall, binding rate, turn p50/p95: overall, per class, per half."""
    from apiatlas.assistant.evaluation import load_cases, report

    try:
        cases = load_cases(cases_file)
        scores = anyio.run(_run, snapshot, cases, db, upstream, settings)
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    result = report(cases.name or cases_file.stem, scores)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        _print(Console(), result)


async def _run(
    snapshot: Path, cases: Any, db: str | None, upstream: str | None, settings: Path | None
) -> Any:
    import tempfile

    from apiatlas.assistant.evaluation import UNREACHABLE, run_cases
    from apiatlas.assistant.session import AssistantOptions, open_assistant

    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state.sqlite"
        live = AssistantOptions(snapshot, db, upstream, state, settings, trace=False)
        down = AssistantOptions(snapshot, DOWN_URL, None, state, settings, trace=False)
        async with open_assistant(live) as assistant, open_assistant(down) as broken:
            assistant.warm()
            broken.warm()

            async def ask(question: str, conversation: str, case_db: str | None) -> Any:
                chosen = broken if case_db == UNREACHABLE else assistant
                return await chosen.ask(question, conversation)

            return await run_cases(cases, ask)


def _print(console: Console, result: dict[str, Any]) -> None:
    table = Table(title=f"eval answers: {result['name']}", title_justify="left")
    columns = ["", "turns", "outcome", "API recall", "fact recall", "binding", "reason", "p50 ms", "p95 ms"]
    for column in columns:
        table.add_column(column)
    rows = [("overall", result["overall"])]
    rows += [(f"half {h}", f) for h, f in result["by_half"].items()]
    rows += list(result["by_class"].items())
    for label, f in rows:
        keys = ("turns", "outcome_accuracy", "api_recall", "fact_recall", "binding_rate", "reason_accuracy")
        table.add_row(label, *(str(f[k]) for k in (*keys, "latency_p50_ms", "latency_p95_ms")))
    console.print(table)
    for failure in result["failures"]:
        console.print(
            f"[yellow]✗[/] {failure['half']} {failure['case']} «{failure['ask']}»: {failure['outcome']} "
            f"(expected {'/'.join(failure['expected'])})"
            + (f", missing facts {failure['missing_facts']}" if failure["missing_facts"] else "")
            + (
                f", APIs {failure['apis_found']}/{failure['apis_expected']}"
                if failure["apis_expected"]
                else ""
            )
            + ("" if failure["reasons_ok"] else ", reason missing"),
            highlight=False,
        )
