"""The HTTP executor through the MCP server against a local REST upstream: requests, rows, reason codes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client

from apiatlas.commands.serve import make_executor
from apiatlas.errors import ConfigError
from apiatlas.executors.http import HttpExecutor
from apiatlas.executors.registry import executor_for_url
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig, ServerLimits
from apiatlas.server.upstream import UpstreamAuth, UpstreamConfig
from apiatlas.snapshot import Snapshot
from apiatlas.snapshot.manifest import serving_of
from apiatlas.sources import SOURCES
from shared_data import shared
from test_http_upstream import Upstream, serve_upstream, write_rest_snapshot
from test_server_catalog import http_server, structured

P = "api_"


@pytest.fixture(scope="module")
def upstream() -> Iterator[tuple[Upstream, str]]:
    state = Upstream()
    with serve_upstream(state) as url:
        yield state, url


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_rest_snapshot(tmp_path_factory.mktemp("http_exec") / "rest.atlas")


def config_for(**upstream: Any) -> ServerConfig:
    return ServerConfig(
        limits=ServerLimits(statement_timeout_ms=1000),
        upstream=UpstreamConfig(backoff_s=0.01, **upstream),
    )


def run(
    snap: Path, url: str, body: Callable[[Client], Awaitable[None]], config: ServerConfig | None = None
) -> None:
    chosen = config or config_for()

    async def main() -> None:
        with Snapshot.open(snap) as snapshot:
            executor = make_executor(None, snapshot, chosen, upstream=url)
            assert isinstance(executor, HttpExecutor)
            try:
                async with Client(build_server(snapshot, executor, chosen)) as client:
                    await body(client)
            finally:
                await executor.close()

    anyio.run(main)


async def execute(client: Client, api: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    return structured(await client.call_tool(P + "execute_api", {"api": api, "args": args or {}}))


def test_path_query_header_cookie_and_body_are_built_from_the_arguments(
    snap: Path, upstream: tuple[Upstream, str]
) -> None:
    state, url = upstream

    async def body(client: Client) -> None:
        args = {
            "item_id": "a b/c",
            "tags": ["x", "y"],
            "filter": {"gte": 5},
            "X-Trace-Id": "t-1",
            "session": "s1",
            "body": {"term": "hanks"},
        }
        result = await execute(client, "POST /echo/{item_id}", args)
        assert result["status"] == "ok", result
        assert result["tables"][0]["columns"] == ["item_id", "ok"]
        assert result["tables"][0]["rows"] == [["a b/c", True]]
        assert state.seen["method"] == "POST"
        assert state.seen["raw_path"] == "/echo/a%20b%2Fc"  # a path value cannot add path segments
        assert state.seen["query"] == [("tags", "x"), ("tags", "y"), ("filter[gte]", "5")]
        assert (state.seen["trace"], state.seen["session"]) == ("t-1", "s1")
        assert state.seen["content_type"] == "application/json"
        assert state.seen["body"] == '{"term":"hanks"}'
        state.seen = {}
        missing = await execute(client, "POST /echo/{item_id}", {"item_id": "1", "body": {}})
        assert missing["reason"] == "MISSING_REQUIRED_INPUT" and "term" in missing["message"]
        dotted = await execute(client, "POST /echo/{item_id}", {"item_id": ".."})
        assert dotted["reason"] == "INVALID_ARGUMENT"
        wrong = await execute(client, "GET /person/{person_id}", {"person_id": "thirty-one"})
        assert wrong["reason"] == "INVALID_ARGUMENT" and "person_id" in wrong["message"]
        assert state.seen == {}  # nothing invalid reached the upstream

    run(snap, url, body)


def test_a_list_response_becomes_rows_kept_as_evidence(snap: Path, upstream: tuple[Upstream, str]) -> None:
    async def body(client: Client) -> None:
        found = await execute(client, "GET /search/person", {"query": "han"})
        assert found["status"] == "ok" and found["rows_returned"] == 1
        table = found["tables"][0]
        assert table["name"] == "response"
        row = dict(zip(table["columns"], table["rows"][0], strict=True))
        assert row["results[].id"] == 31 and row["results[].name"] == "Tom Hanks"
        assert row["page"] == 1  # envelope fields ride along on each row
        assert row["results[].known_for[].title"] == ["Forrest Gump", "Toy Story"]
        page = structured(await client.call_tool(P + "fetch_evidence", {"evidence_id": found["evidence_id"]}))
        assert page["rows"] == table["rows"]
        none = await execute(client, "GET /search/person", {"query": "nobody"})
        assert none["reason"] == "NO_MATCH"
        one = await execute(client, "GET /person/{person_id}", {"person_id": "287"})
        assert one["rows_returned"] == 1 and "Brad Pitt" in one["tables"][0]["rows"][0]

    run(snap, url=upstream[1], body=body)


def test_a_chain_runs_as_a_sequence_with_evidence_per_step(
    snap: Path, upstream: tuple[Upstream, str]
) -> None:
    async def body(client: Client) -> None:
        steps = [
            {"api": "GET /search/person", "args": {"query": "pitt"}},
            {
                "api": "GET /person/{person_id}/movie_credits",
                "param_mapping": {
                    "person_id": {"source_step": 0, "source_table": "response", "column": "results[].id"}
                },
            },
        ]
        chain = structured(await client.call_tool(P + "execute_chain", {"steps": steps}))
        assert chain["status"] == "ok", chain
        assert len(chain["evidence_ids"]) == 2
        last = chain["steps"][1]["tables"][0]
        assert [c for c in last["columns"] if c.startswith("cast")] == ["cast[].id", "cast[].title"]
        assert last["rows"][0][last["columns"].index("cast[].title")] == "Fight Club"
        crew = chain["steps"][1]["tables"][1]  # a second array of records is a table of its own
        assert crew["name"] == "response.crew" and crew["rows"] == [[550, "Producer", "Fight Club"]]

    run(snap, url=upstream[1], body=body)


def test_a_mapped_argument_picks_the_row_named_by_the_request(
    snap: Path, upstream: tuple[Upstream, str]
) -> None:
    """Both people match "t"; the chain takes the id of the one whose name the request said (a lookup
    by name, ``FieldRef.pick_column``), where without the pick the step stops on two candidates."""

    def steps(pick: dict[str, str]) -> list[dict[str, Any]]:
        ref = {"source_step": 0, "source_table": "response", "column": "results[].id", **pick}
        return [
            {"api": "GET /search/person", "args": {"query": "t"}},
            {"api": "GET /person/{person_id}/movie_credits", "param_mapping": {"person_id": ref}},
        ]

    async def body(client: Client) -> None:
        picked = {"pick_column": "results[].name", "pick_value": "brad pitt"}
        chain = structured(await client.call_tool(P + "execute_chain", {"steps": steps(picked)}))
        assert chain["status"] == "ok", chain
        last = chain["steps"][1]["tables"][0]
        assert last["rows"][0][last["columns"].index("cast[].title")] == "Fight Club"
        both = structured(await client.call_tool(P + "execute_chain", {"steps": steps({})}))
        assert both["reason"] == "AMBIGUOUS_ENTITY"
        wrong = {"pick_column": "results[].nickname", "pick_value": "x"}
        bad = structured(await client.call_tool(P + "execute_chain", {"steps": steps(wrong)}))
        assert bad["status"] == "error" and "nickname" in str(bad)

    run(snap, url=upstream[1], body=body)


def test_error_statuses_and_timeouts_map_to_reason_codes(snap: Path, upstream: tuple[Upstream, str]) -> None:
    state, url = upstream

    async def body(client: Client) -> None:
        missing = await execute(client, "GET /person/{person_id}", {"person_id": 999})
        assert missing["reason"] == "ENTITY_NOT_RESOLVED" and missing["error_code"] == "404"
        assert "could not be found" in missing["message"]
        before = state.attempts["boom"]
        failed = await execute(client, "GET /boom")
        assert failed["reason"] == "TOOL_EXECUTION_ERROR" and "database exploded" in failed["message"]
        assert state.attempts["boom"] == before + 1  # a plain 500 is not retried
        slow = await execute(client, "GET /slow")
        assert slow["reason"] == "TIMEOUT", slow
        limited = await execute(client, "GET /limited")
        assert limited["reason"] == "UPSTREAM_UNAVAILABLE" and "retry after 120 s" in limited["message"]
        retried = await execute(client, "GET /busy")
        assert retried["status"] == "ok" and state.attempts["busy GET"] == 3  # idempotent: retried
        posted = await execute(client, "POST /busy")
        assert posted["reason"] == "UPSTREAM_UNAVAILABLE" and state.attempts["busy POST"] == 1  # not retried
        destructive = await execute(client, "DELETE /person/{person_id}", {"person_id": 31})
        assert destructive["reason"] == "NOT_EXECUTABLE"

    run(snap, url, body)


def test_a_large_response_is_cut_at_the_cap_and_says_so(snap: Path, upstream: tuple[Upstream, str]) -> None:
    async def body(client: Client) -> None:
        big = await execute(client, "GET /big")
        assert big["status"] == "ok" and big["reason"] == "TRUNCATED" and big["truncated"]
        assert 10 < big["rows_returned"] < 5000  # the complete rows before the cut are kept
        table = big["tables"][0]
        ids = [row[table["columns"].index("results[].id")] for row in table["rows"]]
        assert ids == list(range(len(ids)))

    run(snap, upstream[1], body, config_for(max_response_bytes=20_000))


def test_upstream_auth_from_config_and_passed_through_from_the_caller(
    snap: Path, upstream: tuple[Upstream, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = upstream[1]

    async def anonymous(client: Client) -> None:
        refused = await execute(client, "GET /whoami")
        assert refused["reason"] == "UPSTREAM_AUTH_FAILED" and refused["error_code"] == "401"

    run(snap, url, anonymous)
    monkeypatch.setenv("TEST_UPSTREAM_TOKEN", "configured")
    config = config_for(
        auth=UpstreamAuth(
            bearer_token_env="TEST_UPSTREAM_TOKEN", pass_through_header="X-Upstream-Authorization"
        )
    )

    async def configured(client: Client) -> None:  # in-process: no HTTP headers, the configured token
        seen = await execute(client, "GET /whoami")
        assert seen["tables"][0]["rows"] == [["Bearer configured"]]

    run(snap, url, configured, config)

    async def over_http(mcp_url: str) -> None:
        for token, expected in (("Bearer caller-token", "ok"), ("Bearer wrong", "UPSTREAM_AUTH_FAILED")):
            headers = {"X-Upstream-Authorization": token}
            async with (
                httpx2.AsyncClient(headers=headers) as http,
                Client(streamable_http_client(mcp_url, http_client=http)) as client,
            ):
                seen = await execute(client, "GET /whoami")
                assert (seen.get("reason") or seen["status"]) == expected, seen
                if expected == "ok":
                    assert seen["tables"][0]["rows"] == [[token]]

    with Snapshot.open(snap) as snapshot:
        executor = make_executor(None, snapshot, config, upstream=url)
        try:
            with http_server(build_server(snapshot, executor, config), config) as mcp_url:
                anyio.run(over_http, mcp_url)
        finally:
            assert executor is not None
            anyio.run(executor.close)


def test_without_upstream_the_instructions_say_why_apis_cannot_run_as_execute_api_does(snap: Path) -> None:
    async def main() -> tuple[str, str, dict[str, Any]]:
        with Snapshot.open(snap) as snapshot:
            reason = serving_of(snapshot.manifest()).no_executor_reason()
            async with Client(build_server(snapshot, None, ServerConfig())) as client:
                answer = await client.call_tool(P + "execute_api", {"api": "GET /search/person", "args": {}})
                return reason, client.instructions or "", structured(answer)

    reason, instructions, answered = anyio.run(main)
    assert "--upstream" in reason and answered["reason"] == "NOT_EXECUTABLE"
    assert reason in answered["message"] and reason in instructions  # one text, one reason
    assert "database" not in instructions.lower()  # an HTTP snapshot has none to configure


def test_configuration_errors_are_clear(snap: Path, tmp_path: Path) -> None:
    assert isinstance(executor_for_url("https://api.example.org/3"), HttpExecutor)
    with Snapshot.open(snap) as snapshot:
        assert make_executor(None, snapshot, ServerConfig()) is None  # no upstream: navigation only
        with pytest.raises(ConfigError, match="--upstream"):
            make_executor("postgresql://localhost/bank", snapshot, ServerConfig())
    with pytest.raises(ConfigError, match="NO_SUCH_TOKEN_VAR"):
        UpstreamConfig(auth=UpstreamAuth(bearer_token_env="NO_SUCH_TOKEN_VAR")).http_settings()
    config_file = tmp_path / "server.yaml"
    config_file.write_text("upstream:\n  base_url: ftp://example.org\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="base_url"):
        ServerConfig.load(config_file)
    (tmp_path / "token.txt").write_text("from-file\n", encoding="utf-8")
    config_file.write_text("upstream:\n  auth: {bearer_token_file: token.txt}\n", encoding="utf-8")
    settings = ServerConfig.load(config_file).upstream.http_settings()
    assert settings.bearer_token is not None and settings.bearer_token.get_secret_value() == "from-file"


TMDB = shared("restbench", "tmdb_oas.json")


@pytest.mark.shared
def test_a_compiled_tmdb_spec_runs_a_two_step_chain_on_the_upstream(
    upstream: tuple[Upstream, str], tmp_path: Path
) -> None:
    if "openapi" not in SOURCES:
        pytest.skip("this build has no OpenAPI source (apiatlas.sources.SOURCES)")
    if not TMDB.exists():
        pytest.skip(f"the TMDB spec is not at {TMDB} (../shared/data/restbench)")
    snap = tmp_path / "tmdb.atlas"
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "compile", str(TMDB), "--out", str(snap)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr + done.stdout

    with Snapshot.open(snap) as snapshot:  # the graph's edge names the columns the chain maps
        edges = snapshot.edges_into("GET /person/{person_id}/movie_credits")
    link = next(e for e in edges if e.producer == "GET /search/person")
    mapping = {"source_step": 0, "source_table": link.producer_table, "column": link.producer_field}
    steps = [
        {"api": "GET /search/person", "args": {"query": "hanks"}},
        {"api": "GET /person/{person_id}/movie_credits", "param_mapping": {link.consumer_field: mapping}},
    ]

    async def body(client: Client) -> None:
        chain = structured(await client.call_tool(P + "execute_chain", {"steps": steps}))
        assert chain["status"] == "ok", chain
        cast = chain["steps"][1]["tables"][0]
        titles = [row[cast["columns"].index("cast[].title")] for row in cast["rows"]]
        assert titles == ["Forrest Gump", "Toy Story"]

    run(snap, upstream[1], body)
