"""Informal business terms: found against the catalog's own words (the sample bank on the embedded
PostgreSQL, and an OpenAPI snapshot compiled from a spec written here, served by a local upstream), defined
by the catalog's settings or by the user's answer to the question back, applied to the answering rows."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from apiatlas.assistant.artifacts import Outcome, TermFilter
from apiatlas.assistant.state import StateStore
from apiatlas.assistant.terms import TermDefinition, parse_bound
from apiatlas.assistant.trace import TraceLog, Turn
from apiatlas.assistant.workflow import Assistant, AssistantSettings
from apiatlas.build import compile_docs
from apiatlas.commands.serve import make_executor
from apiatlas.errors import ReasonCode
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot.reader import Snapshot
from local_server import serve_asgi

ROOT = Path(__file__).resolve().parents[1]
BANK_SETTINGS = AssistantSettings.load(ROOT / "examples" / "bank" / "assistant.yaml")


def conversation(
    snapshot: Path, state: Path, questions: list[str], settings: AssistantSettings,
    db: str | None = None, upstream: str | None = None,
) -> list[Turn]:  # fmt: skip
    """The questions asked in order in one conversation, the state reopened for every turn."""

    async def go() -> list[Turn]:
        turns = []
        with Snapshot.open(snapshot) as snap:
            executor = make_executor(db, snap, ServerConfig(), upstream)
            try:
                for question in questions:
                    store = StateStore(state)
                    assistant = Assistant(snap, executor, state=store, settings=settings)
                    turns.append(await assistant.ask(question, "t"))
                    store.close()
            finally:
                if executor is not None:
                    await executor.close()
        return turns

    return asyncio.run(go())


def bound(turn: Turn) -> set[str]:
    return {v for s in turn.answer.found if s.kind == "evidence" for v in s.values}


def test_a_term_the_settings_define_is_applied_to_the_rows_as_an_assumption(
    bank_snapshot: Path, bank_db: str, tmp_path: Path
) -> None:
    (turn,) = conversation(
        bank_snapshot,
        tmp_path / "s.sqlite",
        ["Какие недавно открытые счета у Михалова?"],
        BANK_SETTINGS,
        bank_db,
    )
    assert turn.frame.informal_terms == ["недавно"]
    assert turn.answer.outcome is Outcome.PARTIALLY_ANSWERED
    assert ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY in turn.answer.reasons
    assert "42306810100012000032" in bound(turn)  # opened 2025-10-15: within 180 days of 2026-03-31
    assert "40817810100012000031" not in bound(turn)  # opened 2019-03-12
    (term,) = turn.resolution.resolved_terms
    assert term.origin == "settings" and term.premise == "assumed" and term.applied == "OpenDate ≥ 2025-10-02"
    assert "OpenDate ≥ 2025-10-02" in turn.answer.text and "180" in turn.answer.text


def test_an_undefined_term_asks_back_and_the_answer_defines_it_for_later_turns(
    bank_snapshot: Path, bank_db: str, tmp_path: Path
) -> None:
    state = tmp_path / "s.sqlite"
    questions = [
        "крупные остатки на счетах Михалова",
        "больше 1 000 000",
        "а крупные остатки на счетах Ждановой?",
    ]
    asked, answered, later = conversation(bank_snapshot, state, questions, BANK_SETTINGS, bank_db)
    assert asked.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY and not asked.runs
    assert ReasonCode.AMBIGUOUS_BUSINESS_TERM in asked.answer.reasons
    assert asked.answer.clarifying_question and "«крупные»" in asked.answer.clarifying_question
    assert answered.answer.outcome is Outcome.FULLY_ANSWERED
    assert answered.frame.original_question == "больше 1 000 000"  # the user's words kept verbatim
    assert "1619245.47" in bound(answered) and "975536.01" not in bound(answered)
    (term,) = answered.resolution.resolved_terms
    assert (term.origin, term.premise, term.applied) == ("user", "confirmed", "Rest ≥ 1000000")
    assert later.resolution.resolved_terms[0].premise == "inherited"
    assert "1037826.75" in bound(later)
    kept = StateStore(state).load("t")
    assert kept.open_term is None and [t.stem for t in kept.resolved_terms] == ["крупн"]
    log = TraceLog(tmp_path / "trace.jsonl")
    for turn in (asked, answered, later):
        log.append(turn)
    found = log.find(answered.turn_id)  # the later turn's inherited term names this turn too
    assert found is not None and found.turn_id == answered.turn_id


def test_a_new_question_instead_of_the_answer_drops_the_open_term(
    bank_snapshot: Path, bank_db: str, tmp_path: Path
) -> None:
    state = tmp_path / "s.sqlite"
    asked, other = conversation(
        bank_snapshot, state, ["Найди крупных клиентов", "Найди клиента Михалова"], BANK_SETTINGS, bank_db
    )
    assert asked.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY
    assert other.answer.outcome is Outcome.FULLY_ANSWERED and not other.resolution.resolved_terms
    assert StateStore(state).load("t").open_term is None


def test_a_bound_is_read_from_an_answer_in_either_language() -> None:
    words = CatalogVocabulary()
    assert parse_bound("больше 1 000 000", words) == TermFilter(at_least=1_000_000)
    assert parse_bound("до 100 тыс", words) == TermFilter(at_most=100_000)
    assert parse_bound("свыше миллиона", words) == TermFilter(at_least=1_000_000)
    assert parse_bound("opened since 2026-01-01", words) == TermFilter(since=date(2026, 1, 1))
    assert parse_bound("за последние 3 месяца", words) == TermFilter(within_days=90)
    assert parse_bound("за последние полгода", words) == TermFilter(within_days=182)
    assert parse_bound("balances more than 1000000", words) == TermFilter(at_least=1_000_000)
    assert parse_bound("от 500 тысяч", words) == TermFilter(at_least=500_000)
    assert parse_bound("VIP клиенты", words) is None
    assert parse_bound("остаток на счёте 40817810100012000031", words) is None  # a value, not a bound


SPEC = """
openapi: 3.0.3
info: {title: Shop, version: "1"}
servers: [{url: "http://localhost"}]
paths:
  /customers/search:
    get:
      operationId: searchCustomers
      summary: Search customers by name
      parameters:
        - {name: name, in: query, required: true, schema: {type: string}, description: the customer's name}
        - name: status
          in: query
          schema: {type: string, enum: [active, closed]}
          description: only customers of this status
      responses:
        "200":
          description: matching customers
          content:
            application/json:
              schema:
                type: object
                properties:
                  results:
                    type: array
                    items:
                      type: object
                      properties:
                        id: {type: integer}
                        name: {type: string}
                        balance: {type: number, description: what the customer holds}
                        joined: {type: string, format: date}
"""
CUSTOMERS = [
    {"id": 1, "name": "Ann Smith", "balance": 250.5, "joined": "2019-04-01"},
    {"id": 2, "name": "Bob Smith", "balance": 98000.0, "joined": "2025-11-20"},
]


def shop() -> Starlette:
    async def search(request: Request) -> Response:
        name = request.query_params.get("name", "").lower()
        return JSONResponse({"results": [c for c in CUSTOMERS if name in str(c["name"]).lower()]})

    return Starlette(routes=[Route("/customers/search", search)])


def test_terms_are_found_against_an_openapi_catalogs_own_words(tmp_path: Path) -> None:
    spec = tmp_path / "shop.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    snapshot = tmp_path / "shop.atlas"
    compile_docs(spec, overlays_dir=None, config_path=None, out=snapshot, write_report=False)
    big = 'search for all big customers named "Smith"'
    with serve_asgi(shop()) as port:
        base = f"http://127.0.0.1:{port}"
        plain = AssistantSettings()
        asked, answered = conversation(
            snapshot, tmp_path / "a.sqlite", [big, "over 1000"], plain, upstream=base
        )
        (active,) = conversation(
            snapshot,
            tmp_path / "b.sqlite",
            ['search for all active customers named "Smith"'],
            plain,
            upstream=base,
        )
        defined = AssistantSettings(
            terms=[
                TermDefinition(words=["big"], means="holds 1000 or more", filter=TermFilter(at_least=1000))
            ]
        )
        (assumed,) = conversation(snapshot, tmp_path / "c.sqlite", [big], defined, upstream=base)
    assert asked.frame.informal_terms == ["big"] and asked.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY
    assert ReasonCode.AMBIGUOUS_BUSINESS_TERM in asked.answer.reasons
    assert answered.answer.outcome is Outcome.FULLY_ANSWERED
    assert "Bob Smith" in bound(answered) and "Ann Smith" not in bound(answered)
    assert active.frame.informal_terms == []  # the catalog binds "active": a value of its status input
    assert assumed.answer.outcome is Outcome.PARTIALLY_ANSWERED
    assert ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY in assumed.answer.reasons
    assert "Bob Smith" in bound(assumed) and "Ann Smith" not in bound(assumed)


def test_a_slang_term_the_settings_read_as_catalog_words_is_planned_with_them(
    bank_snapshot: Path, bank_db: str, tmp_path: Path
) -> None:
    tails = TermDefinition(words=["хвосты"], means="остатки на счетах", reads_as="остатки")
    settings = BANK_SETTINGS.model_copy(update={"terms": [tails]})
    (turn,) = conversation(
        bank_snapshot, tmp_path / "s.sqlite", ["хвосты на счетах Михалова"], settings, bank_db
    )
    assert turn.frame.informal_terms == ["хвосты"]
    assert turn.resolution.rewritten_question.startswith("остатки на счетах")
    assert "API_Acc_GetRest" in turn.answer.apis and "975536.01" in bound(turn)
    assert turn.answer.outcome is Outcome.PARTIALLY_ANSWERED
    assert ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY in turn.answer.reasons


def test_a_word_naming_several_things_of_the_catalog_offers_its_readings(
    bank_snapshot: Path, bank_db: str, tmp_path: Path
) -> None:
    state = tmp_path / "s.sqlite"
    questions = ["статус Михалова", "счёта", "а статус Ждановой?", "статус счёта 40817810100012000031"]
    asked, chosen, later, named = conversation(bank_snapshot, state, questions, BANK_SETTINGS, bank_db)
    assert asked.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY and not asked.runs
    assert ReasonCode.MULTIPLE_VALID_INTERPRETATIONS in asked.answer.reasons
    readings = [r.api for r in asked.resolution.readings]  # nearly tied: in the order of their scores
    assert readings[0] == "API_Prs_GetStatus" and "API_Acc_GetStatus" in readings
    assert asked.answer.clarifying_question and "Текущий статус счёта" in asked.answer.clarifying_question
    assert chosen.resolution.term_answer and "API_Acc_GetStatus" in chosen.answer.apis  # the reading chosen
    assert (
        later.resolution.resolved_terms[0].premise == "inherited" and "API_Acc_GetStatus" in later.answer.apis
    )
    assert not named.resolution.readings  # "счёта" names the object: one reading


TWO_STATUSES = """
openapi: 3.0.3
info: {title: Ledger, version: "1"}
servers: [{url: "http://localhost"}]
tags:
  - {name: customers, description: People who buy}
  - {name: accounts, description: Money accounts of customers}
paths:
  /customers/search:
    get:
      tags: [customers]
      summary: Search customers by name
      parameters: [{name: name, in: query, required: true, schema: {type: string}}]
      responses:
        "200":
          description: matches
          content:
            application/json:
              schema:
                type: object
                properties:
                  results:
                    type: array
                    items: {type: object, properties: {id: {type: integer}, name: {type: string}}}
  /customers/{customer_id}/status:
    get:
      tags: [customers]
      summary: Current status of a customer
      parameters: [{name: customer_id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: the status
          content:
            application/json:
              schema: {type: object, properties: {customer_id: {type: integer}, status: {type: string}}}
  /customers/{customer_id}/accounts:
    get:
      tags: [accounts]
      summary: Accounts of a customer
      parameters: [{name: customer_id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: accounts
          content:
            application/json:
              schema:
                type: object
                properties:
                  results:
                    type: array
                    items:
                      type: object
                      properties: {account_id: {type: integer}, customer_id: {type: integer}}
  /accounts/{account_id}/status:
    get:
      tags: [accounts]
      summary: Current status of an account
      parameters: [{name: account_id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: the status
          content:
            application/json:
              schema: {type: object, properties: {account_id: {type: integer}, status: {type: string}}}
"""


def test_an_openapi_catalogs_word_naming_two_things_offers_both(tmp_path: Path) -> None:
    spec = tmp_path / "ledger.yaml"
    spec.write_text(TWO_STATUSES, encoding="utf-8")
    snapshot = tmp_path / "ledger.atlas"
    compile_docs(spec, overlays_dir=None, config_path=None, out=snapshot, write_report=False)
    questions = ['what is the status of "Bob Smith"', "the account's", 'status of the customer "Bob Smith"']
    asked, chosen, named = conversation(snapshot, tmp_path / "s.sqlite", questions, AssistantSettings())
    assert asked.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY
    assert ReasonCode.MULTIPLE_VALID_INTERPRETATIONS in asked.answer.reasons
    assert [r.api for r in asked.resolution.readings] == [
        "GET /customers/{customer_id}/status",
        "GET /accounts/{account_id}/status",
    ]
    assert chosen.resolution.term_answer and chosen.plan is not None
    assert chosen.plan.steps[-1].api == "GET /accounts/{account_id}/status"  # planned for the chosen reading
    assert not named.resolution.readings  # "customer" names the object
