"""The evidence assistant on the sample bank: a real snapshot, the embedded PostgreSQL with the bank's data,
conversations whose state lives in SQLite, the CLI as a user runs it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from apiatlas.assistant.artifacts import Outcome, Statement
from apiatlas.assistant.state import StateStore
from apiatlas.assistant.trace import TraceLog, Turn, debug_view
from apiatlas.assistant.workflow import Assistant, AssistantSettings, _check_bindings
from apiatlas.cli_app import app
from apiatlas.commands.serve import make_executor
from apiatlas.entry import modules_for, register
from apiatlas.errors import ReasonCode
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot.reader import Snapshot

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = ROOT / "examples" / "bank" / "assistant.yaml"
DOWN = "postgresql://apiatlas@127.0.0.1:9/unreachable?connect_timeout=2"


def conversation(snapshot: Path, db: str, state: Path, questions: list[str], conv: str = "c") -> list[Turn]:
    """The questions asked in order in one conversation; the state file is reopened for every turn."""

    async def go() -> list[Turn]:
        turns = []
        with Snapshot.open(snapshot) as snap:
            executor = make_executor(db, snap, ServerConfig())
            try:
                for question in questions:
                    store = StateStore(state)  # the server keeps the state, not the process
                    assistant = Assistant(
                        snap, executor, state=store, trace=TraceLog(state.with_suffix(".trace.jsonl")),
                        settings=AssistantSettings(as_of=date(2026, 3, 31)),
                    )  # fmt: skip
                    turns.append(await assistant.ask(question, conv))
                    store.close()
            finally:
                assert executor is not None
                await executor.close()
        return turns

    return asyncio.run(go())


def bound(turn: Turn) -> set[str]:
    return {v for s in turn.answer.found if s.kind == "evidence" for v in s.values}


@pytest.fixture(scope="module")
def follow_ups(bank_snapshot: Path, bank_db: str, tmp_path_factory: pytest.TempPathFactory) -> list[Turn]:
    state = tmp_path_factory.mktemp("state") / "conv.sqlite"
    questions = ["Найди клиента Михалова", "А какие у него счета?", "а какой на них остаток?"]
    return conversation(bank_snapshot, bank_db, state, questions)


def test_a_client_found_by_surname_is_answered_with_bound_facts(follow_ups: list[Turn]) -> None:
    turn = follow_ups[0]
    assert turn.answer.outcome is Outcome.FULLY_ANSWERED
    assert turn.answer.apis == ["API_Prs_FindListByFIO"]
    assert "772976034842" in bound(turn)  # Михалов's INN, from the row of the cited evidence
    assert turn.frame.original_question == "Найди клиента Михалова"
    assert turn.coverage.answerability == "full"
    assert all(s.evidence_ids for s in turn.answer.found if s.kind == "evidence")


def test_his_accounts_use_the_person_bound_in_the_turn_before(follow_ups: list[Turn]) -> None:
    first, accounts, balance = follow_ups
    assert accounts.answer.outcome is Outcome.FULLY_ANSWERED
    assert "API_Acc_FindListByListOwnerID" in accounts.answer.apis
    inherited = [b for b in accounts.resolution.bindings if b.origin == "conversation"]
    assert inherited and all(b.premise == "inherited" for b in inherited)
    assert inherited[0].evidence_ids == [first.runs[0].evidence_id]  # the row that proved the person
    assert {"40817810100012000031", "42306810100012000032"} <= bound(accounts)
    assert "API_Acc_GetRest" in balance.answer.apis
    assert balance.answer.outcome is Outcome.FULLY_ANSWERED


def test_an_ambiguous_name_asks_and_the_answer_resolves_it(
    bank_snapshot: Path, bank_db: str, tmp_path: Path
) -> None:
    ask, chosen = conversation(
        bank_snapshot, bank_db, tmp_path / "s.sqlite", ["Найди клиента Иванова", "Никита"]
    )
    assert ask.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY
    assert ReasonCode.AMBIGUOUS_ENTITY in ask.answer.reasons
    assert ask.answer.clarifying_question
    state = StateStore(tmp_path / "s.sqlite").load("c")
    assert state.open_ambiguity is None and state.active_entity is not None  # closed by the answer
    assert chosen.answer.outcome is Outcome.FULLY_ANSWERED
    assert [b.origin for b in chosen.resolution.bindings][:1] == ["clarification"]
    assert chosen.runs[0].rows_returned == 1 and "Никита" in bound(chosen)


def test_a_question_outside_the_catalog_is_misrouted(
    bank_snapshot: Path, bank_db: str, tmp_path: Path
) -> None:
    (turn,) = conversation(bank_snapshot, bank_db, tmp_path / "s.sqlite", ["какая погода в Москве завтра"])
    assert turn.answer.outcome is Outcome.MISROUTED and not turn.runs


def test_a_database_that_is_down_blocks_by_tooling(bank_snapshot: Path, tmp_path: Path) -> None:
    (turn,) = conversation(bank_snapshot, DOWN, tmp_path / "s.sqlite", ["Найди клиента Михалова"])
    assert turn.answer.outcome is Outcome.BLOCKED_BY_TOOLING
    assert ReasonCode.UPSTREAM_UNAVAILABLE in turn.answer.reasons
    assert not bound(turn)


def test_a_stated_value_no_evidence_row_holds_is_refused(follow_ups: list[Turn]) -> None:
    turn = follow_ups[0].model_copy(deep=True)
    evidence_id = turn.answer.found[0].evidence_ids[0]
    turn.answer.found.append(
        Statement(text="balance 1 000 000", values=["1000000.00"], evidence_ids=[evidence_id])
    )
    _check_bindings(turn.answer, turn.evidence.sources)
    assert turn.answer.found[-1].kind == "unknown" and ReasonCode.UNBOUND_CLAIM in turn.answer.reasons
    assert turn.answer.found[0].kind == "evidence"  # the bound statements stay


def test_the_trace_holds_every_artifact_and_the_debug_view_reads_it(follow_ups: list[Turn]) -> None:
    view = debug_view(follow_ups[1])
    for part in (
        "1. understood",
        "2. bound",
        "3. route",
        "4. calls",
        "5. found",
        "6. coverage",
        "7. latency",
    ):
        assert part in view
    assert set(follow_ups[1].latency_ms) >= {
        "interpret",
        "resolve",
        "route",
        "execute",
        "coverage",
        "compose",
    }


def run_cli(*args: str) -> Result:
    """The command as the installed script runs it, in this process (the search model loads once)."""
    register(modules_for(args))
    return CliRunner().invoke(app, list(args))


def test_cli_ask_json_exit_codes_and_trace_show(bank_snapshot: Path, bank_db: str, tmp_path: Path) -> None:
    state = tmp_path / "cli.sqlite"
    common = ["--state", str(state), "--settings", str(SETTINGS)]
    done = run_cli(
        "ask",
        str(bank_snapshot),
        "Найди клиента Михалова",
        "--db",
        bank_db,
        "--json",
        "--conversation",
        "k",
        *common,
    )
    assert done.exit_code == 0, done.output
    package = json.loads(done.stdout)
    assert package["answer"]["outcome"] == "FULLY_ANSWERED"
    follow = run_cli(
        "ask", str(bank_snapshot), "А какие у него счета?", "--db", bank_db, "--conversation", "k", *common
    )
    assert follow.exit_code == 0 and "40817810100012000031" in follow.stdout
    blocked = run_cli("ask", str(bank_snapshot), "Найди клиента Иванова", "--db", bank_db, *common)
    assert blocked.exit_code == 2 and "BLOCKED_BY_AMBIGUITY" in blocked.stdout
    shown = run_cli("trace", "show", "k-2", "--trace", str(state.with_suffix(".trace.jsonl")))
    assert (
        shown.exit_code == 0
        and "API_Acc_FindListByListOwnerID" in shown.stdout
        and "2. bound" in shown.stdout
    )


@pytest.fixture
def cases_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "cases.yaml"
    path.write_text(
        "name: tiny\ncases:\n"
        "  - id: c1\n    turns:\n"
        '      - ask: "Найди клиента Михалова"\n        outcome: FULLY_ANSWERED\n'
        '        apis: [API_Prs_FindListByFIO]\n        facts: ["772976034842"]\n'
        '      - ask: "А какие у него счета?"\n        outcome: [FULLY_ANSWERED, PARTIALLY_ANSWERED]\n'
        '        facts: ["40817810100012000031"]\n'
        "  - id: c2\n    db: unreachable\n    turns:\n"
        '      - ask: "Найди клиента Михалова"\n        outcome: BLOCKED_BY_TOOLING\n'
        "        reason: [UPSTREAM_UNAVAILABLE]\n",
        encoding="utf-8",
    )
    yield path


def test_eval_answers_reports_the_figures(bank_snapshot: Path, bank_db: str, cases_file: Path) -> None:
    done = run_cli("eval", "answers", str(bank_snapshot), str(cases_file), "--db", bank_db, "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    overall = result["overall"]
    assert overall["turns"] == 3 and overall["outcome_accuracy"] == 1.0
    assert overall["fact_recall"] == 1.0 and overall["binding_rate"] == 1.0 and overall["api_recall"] == 1.0
    assert set(result["by_class"]) == {"FULLY_ANSWERED", "BLOCKED_BY_TOOLING"}
    assert not result["failures"]
