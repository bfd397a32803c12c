"""``apiatlas ask``: one question to the evidence assistant; the answer, or the whole package as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import anyio
import typer
from rich.console import Console

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError

SnapArg = Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")]
DbOpt = Annotated[str | None, typer.Option("--db", help="database URL (else $APIATLAS_DB_URL)")]
UpstreamOpt = Annotated[str | None, typer.Option("--upstream", help="REST snapshots: the API's base URL")]
StateOpt = Annotated[
    str | None,
    typer.Option(
        "--state",
        help="conversation state: a SQLite file (default: beside the snapshot) or redis://HOST:PORT/DB "
        "(shared by replicas)",
    ),
]
SettingsOpt = Annotated[
    Path | None,
    typer.Option(
        "--settings", help="assistant settings YAML: as_of, rows_shown (else $APIATLAS_ASSISTANT_SETTINGS)"
    ),
]
LlmOpt = Annotated[
    str | None,
    typer.Option("--llm", help="model roles: openai:MODEL@BASE_URL (key from $APIATLAS_LLM_KEY or *_FILE)"),
]


def print_answer(console: Console, turn: object) -> None:
    """The answer a person reads, then the outcome line an engineer greps."""
    from apiatlas.assistant.trace import Turn

    assert isinstance(turn, Turn)
    answer = turn.answer
    colour = "green" if answer.outcome.answered else "yellow"
    console.print(answer.text, markup=False, highlight=False)
    reasons = ", ".join(r.value for r in answer.reasons)
    console.print(
        f"\n[{colour}]{answer.outcome.value}[/]{' (' + reasons + ')' if reasons else ''} — "
        f"turn {turn.turn_id}, {turn.total_ms:.0f} ms",
        highlight=False,
    )


@app.command("ask")
def ask_command(
    snapshot: SnapArg,
    question: Annotated[str, typer.Argument(help="the question, in the user's own words")],
    db: DbOpt = None,
    upstream: UpstreamOpt = None,
    conversation: Annotated[
        str | None, typer.Option("--conversation", help="continue this conversation (its id)")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the whole turn (every artifact) as JSON")
    ] = False,
    state: StateOpt = None,
    settings: SettingsOpt = None,
    llm: LlmOpt = None,
) -> None:
    """Ask the evidence assistant: exit 0 when answered (fully or partly), 2 when blocked."""
    from apiatlas.assistant.session import AssistantOptions, open_assistant

    options = AssistantOptions(snapshot, db, upstream, state, settings, llm)

    async def run() -> object:
        async with open_assistant(options) as assistant:
            assistant.warm()
            return await assistant.ask(question, conversation)

    try:
        turn = anyio.run(run)
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    from apiatlas.assistant.trace import Turn

    assert isinstance(turn, Turn)
    if as_json:
        typer.echo(json.dumps(turn.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        print_answer(Console(), turn)
    if not turn.answer.outcome.answered:
        raise typer.Exit(2)
