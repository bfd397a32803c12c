"""A snapshot's record of a default stdio server's first answers (``server/start_record.py``): written by
``apiatlas compile`` from a real server, given by a first start anywhere (new folder, empty cache) before
the SDK loads, never used when the start differs from the recorded one. Real processes, the official
MCP client, raw JSON-RPC lines over pipes."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from apiatlas.server.start_record import TABLE, recorded_answers
from apiatlas.server.start_recorder import record_start_answers
from test_result_text import _spec


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``apiatlas compile`` of a small OpenAPI spec, as a user runs it (the installed script's entry)."""
    folder = tmp_path_factory.mktemp("start-record")
    (folder / "pets.json").write_text(json.dumps(_spec()), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "APIATLAS_STDIO_START"}
    env["APIATLAS_CACHE"] = str(folder / "compile-cache")
    compile_args = ["compile", "pets.json", "-o", "pets.atlas", "--embeddings", "none"]
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.entry", *compile_args], cwd=folder, env=env, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    return folder / "pets.atlas"


def _record(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as conn:
        (value,) = conn.execute(f"SELECT value FROM {TABLE}").fetchone()
    return dict(json.loads(value))


def _first_start_env(folder: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("APIATLAS_", "PG"))}
    return {**env, "APIATLAS_CACHE": str(folder / "cache"), **extra}


def _tools(snap: Path, folder: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    folder.mkdir(exist_ok=True)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "apiatlas.entry", "serve", str(snap)], env=env, cwd=folder
    )

    async def main() -> list[dict[str, Any]]:
        async with Client(params) as client:
            tools = (await client.list_tools()).tools
            await client.call_tool("api_list_business_objects", {})
            return [t.model_dump(mode="json", by_alias=True) for t in tools]

    return anyio.run(main)


def test_a_first_start_anywhere_gives_the_real_servers_answers(
    snap: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ./run sets APIATLAS_INSPECTOR and APIATLAS_NODE22: with them no start is a default one
    for name in [k for k in os.environ if k.startswith(("APIATLAS_", "PG"))]:
        monkeypatch.delenv(name)
    recorded = _record(snap)["answers"]
    assert {json.loads(k)[0] for k in recorded} >= {"tools/list", "prompts/list", "resources/list"}
    assert recorded_answers(["serve", str(snap)]) == recorded
    real = _tools(snap, tmp_path / "off", _first_start_env(tmp_path / "off", APIATLAS_STDIO_START="off"))
    first = _tools(snap, tmp_path / "first", _first_start_env(tmp_path / "first"))
    assert first == real
    (held,) = (tmp_path / "first" / "cache" / "stdio-start").glob("*.json")
    served = json.loads(held.read_text(encoding="utf-8"))["answers"]  # the server's own, kept
    assert len(served) == 2 and all(recorded[k] == v for k, v in served.items())  # none was stale


def _raw(snap: Path, folder: Path, lines: list[dict[str, Any]], wanted: int) -> list[dict[str, Any]]:
    """Raw JSON-RPC lines to ``apiatlas serve SNAP`` in ``folder`` with an empty cache; ``wanted`` back."""
    process = subprocess.Popen(
        [sys.executable, "-m", "apiatlas.entry", "serve", snap.name],
        cwd=folder, env=_first_start_env(folder), text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
    process.stdin.flush()
    got = [json.loads(process.stdout.readline()) for _ in range(wanted)]
    process.stdin.close()
    process.wait(60)
    return got


def _wrong_tool_list(snap: Path, folder: Path) -> tuple[Path, dict[str, Any], str, Any]:
    """A copy of ``snap`` in ``folder`` (the same file name: the record applies) whose record lists one
    tool only, as if it were wrong: the copy, its record, the tools/list request key and the right answer."""
    copy = folder / snap.name
    shutil.copy(snap, copy)
    record = _record(copy)
    key = next(k for k in record["answers"] if k.startswith('["tools/list"'))
    right = record["answers"][key]
    record["answers"][key] = {**right, "tools": right["tools"][:1]}
    with sqlite3.connect(copy) as conn:
        conn.execute(f"UPDATE {TABLE} SET value = ?", (json.dumps(record),))
    return copy, record, key, right


def test_the_record_answers_first_and_a_wrong_tool_list_is_corrected(snap: Path, tmp_path: Path) -> None:
    copy, record, key, right = _wrong_tool_list(snap, tmp_path)
    requests = [json.loads(k) for k in record["answers"]]
    lines = [{"jsonrpc": "2.0", "id": i, "method": m, "params": p} for i, (m, p) in enumerate(requests, 1)]
    got = _raw(copy, tmp_path, lines, len(lines) + 1)
    listed = next(m for m in got if m.get("id") == 1 + [r[0] for r in requests].index("tools/list"))
    assert len(listed["result"]["tools"]) == 1  # the record's, answered before the server ran
    assert {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"} in got
    assert sorted(m["id"] for m in got if "id" in m) == list(range(1, len(lines) + 1))  # each answered once
    (held,) = (tmp_path / "cache" / "stdio-start").glob("*.json")
    assert json.loads(held.read_text(encoding="utf-8"))["answers"][key] == right  # the next start's


def test_the_record_is_for_a_default_start_of_that_file_name_only(
    snap: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [k for k in os.environ if k.startswith(("APIATLAS_", "PG"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    path = str(snap)
    assert recorded_answers(["serve", path]) and recorded_answers(["serve", path, "--transport", "stdio"])
    assert recorded_answers(["serve", "--transport=stdio", path])
    renamed = tmp_path / "other.atlas"
    shutil.copy(snap, renamed)
    assert recorded_answers(["serve", str(renamed)]) == {}  # the server's title names the file
    for argv in (["serve", path, "--db", "postgresql://x"], ["serve", path, "--config", "c.yaml"],
                 ["serve", path, "--result-text", "json"], ["search", path]):  # fmt: skip
        assert recorded_answers(argv) == {}
    for variable in ("APIATLAS_DB_URL", "PGHOST"):
        with monkeypatch.context() as env:
            env.setenv(variable, "x")
            assert recorded_answers(["serve", path]) == {}
    stale = tmp_path / snap.name
    shutil.copy(snap, stale)
    record = _record(stale)
    with sqlite3.connect(stale) as conn:  # as if written by other code
        conn.execute(f"UPDATE {TABLE} SET value = ?", (json.dumps({**record, "key": "0" * 64}),))
    assert recorded_answers(["serve", str(stale)]) == {}


def test_a_list_asked_again_after_a_stale_record_gets_the_server_s(snap: Path, tmp_path: Path) -> None:
    """The client told ``list_changed`` lists again: it gets the server's list, not the record's again
    (else every list is stale and followed by another ``list_changed``, for ever)."""
    copy, _, key, right = _wrong_tool_list(snap, tmp_path)
    method, params = json.loads(key)
    process = subprocess.Popen(
        [sys.executable, "-m", "apiatlas.entry", "serve", copy.name],
        cwd=tmp_path, env=_first_start_env(tmp_path), text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    got: list[dict[str, Any]] = []
    for ident, asked in ((1, method), (2, method), (3, "ping")):  # the ping's answer comes after all else
        line = {"jsonrpc": "2.0", "id": ident, "method": asked, "params": params if asked == method else {}}
        process.stdin.write(json.dumps(line) + "\n")
        process.stdin.flush()
        while not any(m.get("id") == ident for m in got) or (ident == 1 and len(got) < 2):
            got.append(json.loads(process.stdout.readline()))
    process.stdin.close()
    process.wait(60)
    second = next(m for m in got if m.get("id") == 2)
    assert second["result"] == right
    assert [m.get("method") for m in got].count("notifications/tools/list_changed") == 1


def test_a_compile_without_a_working_mcp_sdk_writes_the_snapshot_without_a_record(tmp_path: Path) -> None:
    """The record is the only part of a compile that needs the MCP SDK: an SDK that cannot be imported
    (here a package named ``mcp`` that raises, first on the path) costs the record, not the snapshot."""
    broken = tmp_path / "broken" / "mcp"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("no MCP SDK")\n', encoding="utf-8")
    (tmp_path / "pets.json").write_text(json.dumps(_spec()), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "APIATLAS_STDIO_START"}
    env["PYTHONPATH"] = os.pathsep.join([str(broken.parent), *sys.path])
    env["APIATLAS_CACHE"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.entry", "compile", "pets.json", "-o", "pets.atlas", "--embeddings",
         "none"], cwd=tmp_path, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "no first answers" in done.stderr
    with sqlite3.connect(tmp_path / "pets.atlas") as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    assert "apis" in tables and TABLE not in tables


def test_a_snapshot_named_like_the_recorders_own_files_is_recorded(snap: Path, tmp_path: Path) -> None:
    """The recording server's snapshot link and its cache live apart: a snapshot named ``cache`` too."""
    named = tmp_path / "cache"
    shutil.copy(snap, named)
    with sqlite3.connect(named) as conn:
        conn.execute(f"DROP TABLE {TABLE}")
    assert record_start_answers(named, named.name) >= 3
    assert set(_record(named)["answers"]) == set(_record(snap)["answers"])


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="the child's end is read from /proc")
def test_a_server_that_never_answers_costs_the_record_only(
    snap: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recording server that never answers (here it sleeps at its interpreter's start) is given up after
    the recorder's timeout: an error for the compile to note, the child gone, no scratch folder left."""
    import apiatlas.server.start_recorder as recorder

    hook = tmp_path / "hook"
    hook.mkdir()
    pids = tmp_path / "pids"
    (hook / "sitecustomize.py").write_text(
        "import os, time\n"
        "if 'apiatlas-record-' in os.environ.get('APIATLAS_CACHE', ''):\n"
        f"    open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
        "    time.sleep(3600)\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hook), *sys.path]))
    monkeypatch.setattr(recorder, "RECORD_TIMEOUT_S", 2.0)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "scratch"))
    (tmp_path / "scratch").mkdir()
    copy = tmp_path / snap.name
    shutil.copy(snap, copy)
    with pytest.raises(TimeoutError):
        recorder.record_start_answers(copy, copy.name)
    (pid,) = [int(p) for p in pids.read_text(encoding="utf-8").split()]
    status = Path(f"/proc/{pid}/status")
    assert not status.exists()  # ended and reaped (a zombie keeps its /proc entry)
    assert list((tmp_path / "scratch").iterdir()) == []
