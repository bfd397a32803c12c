"""The demo's conversation with the evidence assistant (the turns: ``samples/assistant_turns.py``); each
turn's answer, outcome and evidence ids printed."""

from __future__ import annotations

import tempfile
from pathlib import Path

from rich.console import Console

from apiatlas.assistant.artifacts import Outcome
from apiatlas.assistant.session import AssistantOptions, open_assistant
from apiatlas.samples.assistant_turns import TURNS


async def run_assistant_turns(
    snapshot: Path, db_url: str, settings: Path | None, console: Console
) -> list[Outcome]:
    """Ask the turns in one conversation (its state in a throw-away SQLite file); the outcomes in order."""
    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        options = AssistantOptions(snapshot, db_url, state=Path(tmp) / "demo.sqlite", settings=settings)
        async with open_assistant(options) as assistant:
            assistant.warm()
            for question in TURNS:
                turn = await assistant.ask(question, "demo")
                answer = turn.answer
                colour = "green" if answer.outcome.answered else "yellow"
                console.print(f"[bold cyan]? {question}[/]")
                console.print(answer.text, markup=False, highlight=False)
                reasons = ", ".join(r.value for r in answer.reasons)
                console.print(
                    f"[{colour}]{answer.outcome.value}[/]{' (' + reasons + ')' if reasons else ''}, "
                    f"{turn.total_ms:.0f} ms, evidence {', '.join(answer.evidence_ids) or 'none'}\n",
                    highlight=False,
                )
                outcomes.append(answer.outcome)
    return outcomes
