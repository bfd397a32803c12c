"""The assistant's model roles against a scripted OpenAI-compatible stub server started by the test (the
one fake the rules allow): valid output, repair after invalid JSON, a schema violation, fallback after two
failed repairs, a timeout, and a composer text stating a value no evidence holds."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from apiatlas.assistant.llm import ModelRoles, RoleLog
from apiatlas.assistant.state import StateStore
from apiatlas.assistant.trace import Turn
from apiatlas.assistant.workflow import Assistant, AssistantSettings
from apiatlas.commands.serve import make_executor
from apiatlas.errors import ReasonCode
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot.reader import Snapshot
from chat_stub import ChatStub

READING = {
    "normalized_question": "find the client with surname Mikhalov",
    "intent": "find",
    "expected_answer_shape": "record",
    "informal_terms": [],
    "ambiguities": [],
    "success_criteria": ["the client is found by surname"],
}
CRITIQUE = {
    "covered_points": ["client found"],
    "uncovered_points": [],
    "next_best_actions": ["ask for accounts"],
}


class Stub(ChatStub):
    """Answers /chat/completions from a script per role: a dict (JSON), a str (raw), a float (sleep)."""

    def __init__(self) -> None:
        self.script: dict[str, list[Any]] = {}
        super().__init__(self._step)

    def _step(self, body: dict[str, Any]) -> str | float:
        role = next(r for r in ("interpreter", "critic", "composer") if r in body["messages"][0]["content"])
        queue = self.script.get(role, [])
        step = queue.pop(0) if len(queue) > 1 else (queue[0] if queue else {})
        return step if isinstance(step, (str, float)) else json.dumps(step)

    def of(self, role: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if role in r["messages"][0]["content"]]


@pytest.fixture
def stub() -> Iterator[Stub]:
    server = Stub()
    yield server
    server.close()


def ask(snapshot: Path, db: str, roles: ModelRoles, question: str) -> Turn:
    async def go() -> Turn:
        with Snapshot.open(snapshot) as snap:
            executor = make_executor(db, snap, ServerConfig())
            assert executor is not None
            try:
                assistant = Assistant(
                    snap, executor, state=StateStore(":memory:"), roles=roles,
                    settings=AssistantSettings(as_of=date(2026, 3, 31)),
                )  # fmt: skip
                return await assistant.ask(question, "llm")
            finally:
                await executor.close()

    return asyncio.run(go())


@pytest.fixture(scope="module")
def plain_turn(bank_snapshot: Path, bank_db: str) -> Turn:
    """A deterministic turn whose package and evidence the composer tests reword."""
    roles = ModelRoles(
        "none", "http://127.0.0.1:9", None, timeout_s=0.5
    )  # nothing listens: every role falls back
    turn = ask(bank_snapshot, bank_db, roles, "Найди клиента Михалова")
    assert ReasonCode.INVALID_TOOL_OUTPUT in turn.answer.reasons and turn.answer.composer == "templates"
    return turn


def test_valid_outputs_of_the_three_roles_are_used(bank_snapshot: Path, bank_db: str, stub: Stub) -> None:
    stub.script = {
        "interpreter": [READING],
        "critic": [CRITIQUE],
        "composer": [
            {"short_answer": "Найден клиент Михалов, ИНН 772976034842.", "explanation": "Поиск по фамилии."}
        ],
    }
    turn = ask(bank_snapshot, bank_db, ModelRoles("stub", stub.url, "k"), "Найди клиента Михалова")
    assert turn.frame.original_question == "Найди клиента Михалова"  # never replaced by the reading
    assert turn.frame.normalized_question == READING["normalized_question"]
    assert turn.coverage.next_best_actions == ["ask for accounts"]
    assert turn.answer.composer == "model stub", turn.llm
    assert turn.answer.text.startswith("Найден клиент Михалов")
    assert ReasonCode.INVALID_TOOL_OUTPUT not in turn.answer.reasons
    request = stub.of("composer")[0]
    assert request["response_format"]["json_schema"]["strict"] is True
    assert [m["role"] for m in request["messages"]] == ["system", "system", "user"]  # static prefix first
    assert "772976034842" in request["messages"][-1]["content"]  # the facts come last


def test_invalid_json_is_repaired_with_the_validation_error(plain_turn: Turn, stub: Stub) -> None:
    stub.script = {"composer": ["{not json", {"short_answer": "Клиент найден.", "explanation": ""}]}
    log = RoleLog()
    package = ModelRoles("stub", stub.url, None).compose(plain_turn.answer, plain_turn.evidence, log)
    assert package.short_answer == "Клиент найден." and not log.reasons
    repair = stub.of("composer")[1]["messages"]
    assert repair[-2]["content"] == "{not json" and "invalid" in repair[-1]["content"]


def test_a_schema_violation_twice_repaired_then_falls_back(plain_turn: Turn, stub: Stub) -> None:
    stub.script = {
        "interpreter": [{**READING, "intent": "guess"}, {"normalized_question": 3}, {**READING, "x": 1}]
    }
    log = RoleLog()
    frame = ModelRoles("stub", stub.url, None).interpret(plain_turn.frame, log)
    assert frame == plain_turn.frame  # the deterministic reading
    assert log.reasons == [ReasonCode.INVALID_TOOL_OUTPUT] and len(stub.of("interpreter")) == 3
    assert "2 repairs" in log.notes[0]


def test_a_timeout_falls_back_to_the_deterministic_stage(plain_turn: Turn, stub: Stub) -> None:
    stub.script = {"critic": [2.0]}
    log = RoleLog()
    report = ModelRoles("stub", stub.url, None, timeout_s=0.3).criticise(
        plain_turn.frame, plain_turn.evidence, plain_turn.coverage, log
    )
    assert report == plain_turn.coverage and log.reasons == [ReasonCode.INVALID_TOOL_OUTPUT]
    assert "timeout" in log.notes[0]


def test_a_composer_text_with_an_unbound_value_is_rejected(plain_turn: Turn, stub: Stub) -> None:
    invented = {"short_answer": "У Михалова на счёте 1 234 567.89 рублей.", "explanation": ""}
    stub.script = {"composer": [invented]}
    log = RoleLog()
    package = ModelRoles("stub", stub.url, None).compose(plain_turn.answer, plain_turn.evidence, log)
    assert package.composer == "templates" and "1 234 567.89" not in package.text
    assert log.reasons == [ReasonCode.INVALID_TOOL_OUTPUT]
    assert "not in the evidence facts" in stub.of("composer")[1]["messages"][-1]["content"]
