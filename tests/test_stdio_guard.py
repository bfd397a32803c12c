"""Over stdio every request is answered, also one the JSON-RPC layer cannot read (no silent drop, no hang)."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

from apiatlas.fuzz.corpus import nested
from apiatlas.server.stdio_guard import request_id
from apiatlas.snapshot import write_snapshot
from test_snapshot_catalog import mini_catalog

ROOT = Path(__file__).resolve().parents[1]


def test_the_id_of_an_unreadable_line_is_found() -> None:
    assert request_id('{"jsonrpc": "2.0", "id": 17, "method": "x", "params": [[[[') == 17
    assert request_id('{"id":"abc","method":') == "abc"
    assert request_id('{"method": "notifications/x"}') is None


def test_unreadable_requests_get_json_rpc_errors_and_the_server_goes_on(tmp_path: Path) -> None:
    snap = tmp_path / "mini.atlas"
    write_snapshot(mini_catalog(), snap, options={"source": "x"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "apiatlas.cli", "serve", str(snap)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={"PYTHONPATH": str(ROOT / "src")},
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None

    def send(message: Any) -> None:
        assert proc.stdin is not None
        proc.stdin.write(((message if isinstance(message, str) else json.dumps(message)) + "\n").encode())
        proc.stdin.flush()

    def answer() -> dict[str, Any]:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no answer within 30 s"
        return dict(json.loads(proc.stdout.readline()))

    try:
        hello = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
        assert "result" in answer()
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "x_describe_api", "arguments": {"api": nested(300)}}
        send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        assert answer() == {"jsonrpc": "2.0", "id": 1, "error": {"code": -32700, "message": answer_text()}}
        send('{"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": 5}')
        invalid = answer()
        assert invalid["id"] == "b" and invalid["error"]["code"] == -32600
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert answer()["id"] == 2  # still serving
    finally:
        proc.kill()
        proc.wait()


def answer_text() -> str:
    return "the message cannot be parsed (nested too deeply or not JSON)"
