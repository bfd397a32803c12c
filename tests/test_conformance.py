"""The official MCP conformance suite against ``apiatlas serve`` (Streamable HTTP), held to its baseline."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from mcp.client.client import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, LoggingMessageNotificationParams

from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from local_server import free_port

ROOT = Path(__file__).resolve().parents[1]
BANK_DOCS = ROOT / "examples" / "bank" / "docs"
BASELINE = Path(__file__).with_name("conformance-baseline.yml")
RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")
# Scenarios of the active suite that need nothing of the suite's reference server: they must pass.
CORE = {
    "server-initialize", "ping", "logging-set-level", "tools-list", "resources-list",
    "prompts-list", "server-sse-multiple-streams", "dns-rebinding-protection",
}  # fmt: skip


def baseline() -> dict[str, Any]:
    data = yaml.safe_load(BASELINE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def conformance_suite() -> tuple[str, str]:
    """Node 22 and the suite's entry point, from the environment ``./run test`` exports."""
    node, suite = os.environ.get("APIATLAS_NODE22"), os.environ.get("APIATLAS_CONFORMANCE")
    if not node or not suite:
        pytest.skip(
            "APIATLAS_NODE22 / APIATLAS_CONFORMANCE are not set "
            "(./run test installs Node 22 and @modelcontextprotocol/conformance and sets them)"
        )
    for path in (node, suite):
        if not Path(path).is_file():
            pytest.skip(f"{path} does not exist (run ./run test once with npm available)")
    return node, suite


@pytest.fixture(scope="module")
def bank_snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("conformance") / "bank.atlas"
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "compile", str(BANK_DOCS), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    return out


@pytest.fixture(scope="module")
def served_url(bank_snap: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``apiatlas serve --transport http`` on a loopback port, for as long as the module's tests run."""
    conformance_suite()  # no server to start when the suite is not installed
    port = free_port()
    log = (tmp_path_factory.mktemp("serve") / "serve.log").open("w+")
    env = {k: v for k, v in os.environ.items() if k != "APIATLAS_DB_URL"}
    cmd = [sys.executable, "-m", "apiatlas.cli", "serve", str(bank_snap), "--transport", "http"]
    proc = subprocess.Popen(
        [*cmd, "--host", "127.0.0.1", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT, env=env
    )
    try:
        deadline = time.monotonic() + 60  # start-up wait, not a timing assertion
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"apiatlas serve exited with {proc.returncode}: {log.read()[-3000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("apiatlas serve did not open its port within 60 s")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@dataclass
class SuiteRun:
    done: subprocess.CompletedProcess[str]
    checks: dict[str, list[dict[str, Any]]]  # scenario -> its checks (checks.json)

    def output(self) -> str:
        return (self.done.stdout + self.done.stderr)[-4000:]


@pytest.fixture(scope="module")
def suite_run(served_url: str, tmp_path_factory: pytest.TempPathFactory) -> SuiteRun:
    node, suite = conformance_suite()
    out = tmp_path_factory.mktemp("conformance-results")
    done = subprocess.run(
        [node, suite, "server", "--url", served_url, "--expected-failures", str(BASELINE), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=out,
    )
    checks: dict[str, list[dict[str, Any]]] = {}
    for result in sorted(out.glob("server-*/checks.json")):
        match = RESULT_DIR.match(result.parent.name)
        assert match, result
        checks[match["scenario"]] = json.loads(result.read_text(encoding="utf-8"))
    return SuiteRun(done, checks)


def test_baseline_names_a_fixture_and_a_failure_for_every_entry() -> None:
    data = baseline()
    entries, why = data["server"], data["why"]
    assert len(entries) == len(set(entries)) and set(entries) == set(why)
    assert not CORE & set(entries), "scenarios that need no reference fixture may not be baselined"
    for scenario, reason in why.items():
        assert set(reason) == {"needs", "fails_with"}, scenario
        assert re.search(r"\btest(_\w+|://)", reason["needs"]), f"{scenario}: not a reference fixture"


def test_suite_passes_with_the_baseline(suite_run: SuiteRun) -> None:
    assert suite_run.done.returncode == 0, suite_run.output()
    assert "Baseline check passed" in suite_run.done.stdout, suite_run.output()


def test_every_scenario_ran_and_the_core_ones_pass_every_check(suite_run: SuiteRun) -> None:
    assert set(baseline()["server"]) | CORE <= set(suite_run.checks), suite_run.output()
    for scenario in CORE:
        checks = suite_run.checks[scenario]
        assert checks and all(c["status"] == "SUCCESS" for c in checks), (scenario, checks)


def test_baselined_scenarios_fail_only_for_the_missing_reference_fixture(suite_run: SuiteRun) -> None:
    for scenario, reason in baseline()["why"].items():
        failed = [c for c in suite_run.checks[scenario] if c["status"] in ("FAILURE", "WARNING")]
        assert failed, f"{scenario} passes: remove it from {BASELINE.name}"
        for check in failed:
            assert reason["fails_with"] in check.get("errorMessage", ""), (scenario, check)


# --- what the suite found that was ours, checked in process (no Node needed) -------------------------


@asynccontextmanager
async def bank_client(snap: Path, messages: list[LoggingMessageNotificationParams]) -> AsyncIterator[Client]:
    async def on_log(params: LoggingMessageNotificationParams) -> None:
        messages.append(params)

    snapshot = Snapshot.open(snap)
    try:
        server = build_server(snapshot, None, ServerConfig())
        async with Client(server, mode="legacy", logging_callback=on_log) as client:
            yield client
    finally:
        snapshot.close()


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
def test_logging_set_level_sends_failed_calls_at_or_above_the_level(bank_snap: Path) -> None:
    messages: list[LoggingMessageNotificationParams] = []

    async def scenario() -> None:
        async with bank_client(bank_snap, messages) as client:
            await client.call_tool("bank_describe_api", {"api": "API_No_Such"})
            assert messages == []  # no level set: no log messages
            await client.set_logging_level("warning")
            ok = await client.call_tool("bank_describe_api", {"api": "API_Acc_GetRest"})
            assert not ok.is_error and messages == []  # a successful call is not logged
            await client.call_tool("bank_describe_api", {"api": "API_No_Such"})
            await client.set_logging_level("error")
            await client.call_tool("bank_describe_api", {"api": "API_No_Such"})  # warning < error

    anyio.run(scenario)
    assert len(messages) == 1, messages
    entry = messages[0]
    assert entry.level == "warning" and entry.logger == "apiatlas"
    assert entry.data["tool"] == "bank_describe_api" and entry.data["reason"] == "UNKNOWN_API"
    assert "API_No_Such" in entry.data["message"]


def test_an_unknown_prompt_is_invalid_params(bank_snap: Path) -> None:
    async def scenario() -> MCPError:
        async with bank_client(bank_snap, []) as client:
            assert (await client.list_prompts()).prompts == []
            with pytest.raises(MCPError) as raised:
                await client.get_prompt("test_simple_prompt")
            return raised.value

    error = anyio.run(scenario)
    assert error.code == INVALID_PARAMS and "Unknown prompt: test_simple_prompt" in error.message
