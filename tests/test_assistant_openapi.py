"""The assistant over an OpenAPI snapshot with an HTTP upstream (--upstream): the same stages, the HTTP
executor, a follow-up pointing back at the person the first turn found."""

from __future__ import annotations

import asyncio
from pathlib import Path

from apiatlas.assistant.artifacts import Outcome
from apiatlas.assistant.state import StateStore
from apiatlas.assistant.trace import Turn
from apiatlas.assistant.workflow import Assistant
from apiatlas.build import compile_docs
from apiatlas.commands.serve import make_executor
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot.reader import Snapshot
from test_http_upstream import Upstream, serve_upstream

SPEC = Path(__file__).parent / "data" / "assistant_people.yaml"


def test_an_openapi_snapshot_answers_through_its_upstream(tmp_path: Path) -> None:
    snapshot = tmp_path / "people.atlas"
    compile_docs(SPEC, overlays_dir=None, config_path=None, out=snapshot, write_report=False)
    with serve_upstream(Upstream()) as base:

        async def go() -> list[Turn]:
            with Snapshot.open(snapshot) as snap:
                executor = make_executor(None, snap, ServerConfig(), base)
                assert executor is not None
                assistant = Assistant(snap, executor, state=StateStore(tmp_path / "s.sqlite"))
                try:
                    return [
                        await assistant.ask(q, "p")
                        for q in (
                            'search for people named "Tom Hanks"',
                            "Get the movie credits of this person",
                        )
                    ]
                finally:
                    await executor.close()

        found, credits = asyncio.run(go())
    assert found.answer.outcome is Outcome.FULLY_ANSWERED and found.answer.language == "en"
    assert credits.answer.outcome is Outcome.FULLY_ANSWERED
    assert "GET /person/{person_id}/movie_credits" in credits.answer.apis
    stated = {v for s in credits.answer.found if s.kind == "evidence" for v in s.values}
    assert {"Forrest Gump", "Toy Story"} <= stated
    assert "Tom Hanks" in credits.resolution.rewritten_question  # "this person": the one found before
