"""The Ask page in a real browser (Debian's chromium driven by playwright): a conversation with the evidence
assistant under ``/ui`` of ``apiatlas serve --transport http`` over the sample bank on the embedded
PostgreSQL (a client found by surname, then a follow-up about his accounts), each stated fact linked to its
evidence row, the trace panel opened; a role behind ``--security`` whose assistant sees only its APIs.

The browser, the page fixture and the screenshots are ``test_web_pages``'s (one saved per step under the
test's temporary folder).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apiatlas.assistant.http import STATE_ENV
from apiatlas.assistant.session import SETTINGS_ENV
from apiatlas.assistant.trace import Turn
from apiatlas.catalog.model import SideEffect
from apiatlas.commands.serve import make_executor
from apiatlas.security.config import AuditSettings, AuthSettings, RoleSettings, SecurityConfig
from apiatlas.security.gateway import SecureGateway
from apiatlas.server.app import build_server, http_app
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from apiatlas.web.secured import SecuredPages
from local_server import free_port, serve_asgi
from test_security_http import write_keys
from test_security_writes import write_catalog_snapshot
from test_web_pages import browser, page, requests_seen, shot, web_process  # noqa: F401 (the fixtures)

SETTINGS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "assistant.yaml"
FIND = "API_Prs_FindListByFIO"
ACCOUNTS = "API_Acc_FindListByListOwnerID"


@pytest.fixture
def assistant_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The assistant's state and trace in the test's folder, the bank's as-of date."""
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "state.sqlite"))
    monkeypatch.setenv(SETTINGS_ENV, str(SETTINGS))
    return tmp_path


@pytest.fixture
def served(bank_snapshot: Path, bank_db: str, assistant_env: Path) -> Iterator[str]:
    """``apiatlas serve --transport http`` over the bank and its database: the pages at /ui."""
    with Snapshot.open(bank_snapshot) as snap:
        config = ServerConfig()
        server = build_server(snap, make_executor(bank_db, snap, config), config)
        with serve_asgi(http_app(server, config)) as port:
            yield f"http://127.0.0.1:{port}/ui"


def traced(folder: Path) -> list[Turn]:
    """Every turn the server's assistant traced (its trace file is beside the state)."""
    lines = (folder / "state.trace.jsonl").read_text(encoding="utf-8").splitlines()
    return [Turn.model_validate_json(line) for line in lines if line.strip()]


def ask(tab: Any, question: str) -> None:
    tab.fill("#question", question)
    with tab.expect_navigation():
        tab.locator("form.ask button").click()


def test_a_conversation_with_facts_linked_to_their_rows_and_the_trace(
    page: Any, served: str, tmp_path: Path, bank_snapshot: Path, assistant_env: Path  # noqa: F811
) -> None:
    assert page.goto(served + "/ask").status == 200
    ask(page, "Найди клиента Михалова")
    conversation = page.locator("input[name=conversation]").get_attribute("value")
    assert conversation and f"c={conversation}" in page.url  # the id lives in the URL and the form
    first = page.locator("#turn-1")
    assert "FULLY_ANSWERED" in first.locator(".outcome").inner_text()
    inn = first.locator("a.fact", has_text="772976034842")  # Михалов's INN, bound to its row
    assert inn.count() >= 1
    inn.first.click()
    target = page.locator("tr:target")
    assert target.count() == 1 and "772976034842" in target.inner_text()
    assert page.url.split("#", 1)[1].startswith("t-1-")

    ask(page, "А какие у него счета?")
    second = page.locator("#turn-2")
    assert page.locator("article.turn").count() == 2  # the conversation so far, in order
    assert "FULLY_ANSWERED" in second.locator(".outcome").inner_text()
    assert second.locator(f"a[href*='api?key={ACCOUNTS}']").count() >= 1  # rows of his accounts' API
    facts = second.locator("a.fact")
    assert facts.count() >= 1
    for i in range(facts.count()):  # every fact link leads to a row of this turn that holds its value
        link = facts.nth(i)
        row = page.locator("#" + (link.get_attribute("href") or "#")[1:])
        assert row.count() == 1, link.get_attribute("href")
        assert link.inner_text().split(" = ", 1)[1] in row.inner_text()
    assert "coverage" in second.locator("section.coverage h3").inner_text().lower()

    trace = second.locator("details.trace")
    trace.locator("> summary").click()
    stage = trace.locator("details.stage[data-stage=execute]")
    stage.locator("summary").click()
    assert ACCOUNTS in stage.locator("pre").inner_text()  # the calls the turn ran, with their evidence
    assert trace.locator("details.stage").count() >= 7
    assert page.locator("script").count() == 0
    shot(page, tmp_path, "ask-conversation")
    with Snapshot.open(bank_snapshot) as snap:  # the assistant ran read APIs only
        ran = [run.api for turn in traced(assistant_env) for run in turn.runs]
        assert ran and {snap.get_api(key).side_effect for key in ran} == {SideEffect.READ}  # type: ignore[union-attr]


def test_a_role_asks_over_its_own_apis_only(
    browser: Any, bank_snapshot: Path, bank_db: str, assistant_env: Path, tmp_path: Path  # noqa: F811
) -> None:
    keys_file, keys = write_keys(tmp_path, {"pat": ["people"]})
    port = free_port()
    security = SecurityConfig(
        auth=AuthSettings(resource_url=f"http://127.0.0.1:{port}/mcp", keys_file=keys_file),
        roles={"people": RoleSettings(objects=["Prs"])},
        audit=AuditSettings(file=tmp_path / "audit.jsonl"),
    )
    with Snapshot.open(bank_snapshot) as snap:
        front = SecureGateway(snap, make_executor(bank_db, snap, ServerConfig()), ServerConfig(), security)
        with serve_asgi(front.asgi(), port):
            context = browser.new_context(extra_http_headers={"Authorization": f"Bearer {keys['pat']}"})
            try:
                tab = context.new_page()
                assert tab.goto(f"http://127.0.0.1:{port}/ui/ask").status == 200
                ask(tab, "какие счета у Михалова")
                turn = tab.locator("#turn-1")
                assert turn.locator(".outcome").count() == 1  # answered somehow, not refused
                assert turn.locator("a[href*='API_Acc']").count() == 0  # no accounts' API cited
                execute = turn.locator("details.stage[data-stage=execute] pre").text_content() or ""
                assert "API_Acc" not in execute  # the role's assistant ran none of the accounts' APIs
            finally:
                context.close()
    audited = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    asked = [x for x in audited if x["tool"] == "ask"]  # as POST /ask audits a question
    assert [(x["principal"], x["role"]) for x in asked] == [("pat", "people")]


def test_apiatlas_web_with_db_serves_the_ask_page(
    page: Any, bank_snapshot: Path, bank_db: str, assistant_env: Path  # noqa: F811
) -> None:
    """``apiatlas web SNAP --db URL``: the command itself answers a question on its Ask page."""
    with web_process(bank_snapshot, "--db", bank_db) as port:
        assert page.goto(f"http://127.0.0.1:{port}/ask").status == 200
        ask(page, "Найди клиента Михалова")
        assert "FULLY_ANSWERED" in page.locator("#turn-1 .outcome").inner_text()
        assert page.locator("#turn-1 a.fact", has_text="772976034842").count() == 1


def test_the_page_assistant_of_a_role_with_writes_runs_reads_only(
    bank_db: str, assistant_env: Path, tmp_path: Path
) -> None:
    """A role whose MCP tools may run write APIs (after confirmation): its Ask page's assistant may not."""
    keys_file, _ = write_keys(tmp_path, {"cat": ["clerk"]})
    security = SecurityConfig(
        auth=AuthSettings(resource_url="http://127.0.0.1:9/mcp", keys_file=keys_file),
        roles={"clerk": RoleSettings(write_apis=["*"])},
        audit=AuditSettings(file=tmp_path / "audit.jsonl"),
    )
    with Snapshot.open(write_catalog_snapshot(tmp_path / "writes.atlas")) as snap:  # one kept write API
        reads, writes_on = (make_executor(bank_db, snap, ServerConfig()) for _ in range(2))
        front = SecureGateway(snap, reads, ServerConfig(), security, write_executor=writes_on)
        role_view = front.servers["clerk"].view
        writes = [k for k in role_view.all_api_keys() if role_view.writes_enabled(k)]
        assert writes == ["API_Test_Write"]
        assistant = SecuredPages(front, snap).sites["clerk"].assistant
        assert assistant is not None
        page_view = assistant.core.navigator
        assert not any(page_view.writes_enabled(k) for k in writes)
        assert all(page_view.snapshot.visible(k) for k in writes)  # still the role's view otherwise
