"""``apiatlas chat``: a conversation with the evidence assistant in the terminal; ``/trace`` shows the
engineer's view of the last turn, ``/new`` starts another conversation, ``/quit`` ends."""

from __future__ import annotations

import uuid
from typing import Annotated

import anyio
import typer
from rich.console import Console

from apiatlas.cli_app import app
from apiatlas.commands.ask import DbOpt, LlmOpt, SettingsOpt, SnapArg, StateOpt, UpstreamOpt, print_answer
from apiatlas.errors import ApiatlasError


@app.command("chat")
def chat_command(
    snapshot: SnapArg,
    db: DbOpt = None,
    upstream: UpstreamOpt = None,
    conversation: Annotated[
        str | None, typer.Option("--conversation", help="continue this conversation")
    ] = None,
    state: StateOpt = None,
    settings: SettingsOpt = None,
    llm: LlmOpt = None,
) -> None:
    """Talk to the evidence assistant: one question a line; /trace, /new, /quit."""
    from apiatlas.assistant.session import AssistantOptions, open_assistant
    from apiatlas.assistant.trace import debug_view

    console = Console()
    options = AssistantOptions(snapshot, db, upstream, state, settings, llm)

    async def run() -> None:
        conversation_id = conversation or uuid.uuid4().hex[:12]
        last = None
        async with open_assistant(options) as assistant:
            warm = assistant.warm()  # the search index and query encoder, before the first question
            console.print(
                f"[bold]conversation {conversation_id}[/] — /trace, /new, /quit "
                f"[dim](ready in {warm:.0f} ms)[/]"
            )
            while True:
                line = await anyio.to_thread.run_sync(lambda: console.input("[bold cyan]? [/]"))
                text = line.strip()
                if text in ("/quit", "/exit"):
                    return
                if text == "/trace":
                    console.print(debug_view(last) if last else "no turn yet", markup=False, highlight=False)
                elif text == "/new":
                    conversation_id = uuid.uuid4().hex[:12]
                    console.print(f"[bold]conversation {conversation_id}[/]")
                elif text:
                    last = await assistant.ask(text, conversation_id)
                    print_answer(console, last)

    try:
        anyio.run(run)
    except (EOFError, KeyboardInterrupt):
        pass
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
