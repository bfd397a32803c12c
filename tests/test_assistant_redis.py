"""ConversationState in Redis: two servers (replicas) sharing one Redis continue one conversation through
POST /ask, and `apiatlas ask --state redis://...` continues it from the command line (a real redis-server
started by the test; skipped where none is installed)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from apiatlas.assistant.http import STATE_ENV, scoped
from apiatlas.assistant.state import ConversationState, RedisStateStore, StateUnavailable, open_state
from apiatlas.commands.serve import make_executor
from apiatlas.server.app import build_server, http_app
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from local_server import free_port, serve_asgi
from test_assistant import run_cli
from test_limits_redis import redis_url

__all__ = ["redis_url"]  # the fixture: a redis-server of this module


def test_two_replicas_sharing_one_redis_continue_one_conversation(
    bank_snapshot: Path, bank_db: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STATE_ENV, redis_url)
    with Snapshot.open(bank_snapshot) as snap:
        executor = make_executor(bank_db, snap, ServerConfig())
        first, second = (
            build_server(snap, executor, ServerConfig()),
            build_server(snap, executor, ServerConfig()),
        )
        with (
            serve_asgi(http_app(first, ServerConfig())) as one,
            serve_asgi(http_app(second, ServerConfig())) as two,
        ):

            def ask(port: int, question: str) -> dict[str, object]:
                body = {"question": question, "conversation_id": "shared"}
                response = httpx.post(f"http://127.0.0.1:{port}/ask", json=body, timeout=60)
                assert response.status_code == 200, response.text
                answer: dict[str, object] = response.json()["answer"]
                return answer

            found = ask(one, "Найди клиента Михалова")
            accounts = ask(two, "А какие у него счета?")  # the other replica: the person bound by the first
    assert found["outcome"] == "FULLY_ANSWERED"
    assert accounts["outcome"] == "FULLY_ANSWERED"
    assert "API_Acc_FindListByListOwnerID" in accounts["apis"]  # type: ignore[operator]
    assert "40817810100012000031" in str(accounts["text"])
    state = open_state(redis_url).load(scoped("local", "shared"))
    assert (
        state.turns == 2 and state.active_entity is not None and state.active_entity.key == "PersonID=1000020"
    )
    balance = run_cli(
        "ask", str(bank_snapshot), "а какой на них остаток?", "--db", bank_db,
        "--conversation", scoped("local", "shared"), "--state", redis_url,
    )  # fmt: skip
    assert balance.exit_code == 0, balance.output
    assert "API_Acc_GetRest" in balance.stdout and "975536.01" in balance.stdout
    assert open_state(redis_url).load(scoped("local", "shared")).turns == 3


def test_a_redis_that_is_down_refuses_the_turn() -> None:
    store = RedisStateStore(f"redis://127.0.0.1:{free_port()}/0")
    with pytest.raises(StateUnavailable):
        store.load("c")
    with pytest.raises(StateUnavailable):
        store.save(ConversationState(conversation_id="c"))
