"""Bounds on every input: long queries, out-of-range integers, booleans, NUL and surrogates, config errors."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from apiatlas.build import compile_docs
from apiatlas.catalog.model import DomainType
from apiatlas.commands.serve import make_executor
from apiatlas.executors.value_types import CoercionError, coerce, value_spec
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from test_dbsource_pg import pagila  # noqa: F401 - the fixture
from test_server_catalog import structured

ROOT = Path(__file__).resolve().parents[1]


def fits(value: Any, domain_type: str, schema: dict[str, Any] | None = None, **types: DomainType) -> Any:
    return coerce(value, value_spec(domain_type, schema, types or None), 4096)


@pytest.mark.parametrize(
    ("value", "domain_type", "schema", "types"),
    [
        (99999999999, "integer", {"type": "integer"}, {}),  # int4
        (40000, "smallint", {"type": "integer"}, {}),
        (2**63, "bigint", {"type": "integer"}, {}),
        (
            10**15,
            "DSIDENTIFIER",
            None,
            {"DSIDENTIFIER": DomainType(name="DSIDENTIFIER", base_type="numeric(15,0)")},
        ),
        (11, "integer", {"type": "integer", "maximum": 10}, {}),
        (True, "integer", {"type": "integer"}, {}),  # a boolean is not 1
        (False, "DSTINYINT", None, {}),
        ("ab\x00c", "varchar", {"type": "string"}, {}),
        ("ab\ud800c", "varchar", {"type": "string"}, {}),
        ("2024-01-01\x00", "date", {"type": "string", "format": "date"}, {}),
    ],
)
def test_values_outside_the_domain_are_refused(
    value: Any, domain_type: str, schema: dict[str, Any] | None, types: dict[str, DomainType]
) -> None:
    with pytest.raises(CoercionError):
        fits(value, domain_type, schema, **types)


def test_values_inside_the_domain_still_bind() -> None:
    assert fits(2**31 - 1, "integer", {"type": "integer"}) == 2**31 - 1
    assert fits(-(2**15), "int2", {"type": "integer"}) == -(2**15)
    assert fits(2**63 - 1, "int8", {"type": "integer"}) == 2**63 - 1
    numeric = DomainType(name="DSIDENTIFIER", base_type="numeric(15,0)")
    assert fits(10**15 - 1, "DSIDENTIFIER", None, DSIDENTIFIER=numeric) == 10**15 - 1
    assert fits("Михалов", "varchar", {"type": "string"}) == "Михалов"


@pytest.fixture(scope="module")
def pagila_snap(pagila: str, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    folder = tmp_path_factory.mktemp("bounds")
    config = folder / "build.yaml"
    config.write_text("funnel: []\n", encoding="utf-8")
    out = folder / "pagila.atlas"
    compile_docs(Path(pagila), overlays_dir=None, config_path=config, out=out, embeddings="none")
    return out


def _calls(
    snap_path: Path, uri: str, calls: list[tuple[str, dict[str, Any]]]
) -> list[tuple[dict[str, Any], float, int]]:
    async def main() -> list[tuple[dict[str, Any], float, int]]:
        answers = []
        with Snapshot.open(snap_path) as snap:
            config = ServerConfig()
            executor = make_executor(uri, snap, config)
            try:
                async with Client(build_server(snap, executor, config)) as client:
                    for tool, args in calls:
                        started = time.monotonic()
                        result = await client.call_tool("atlas_" + tool, args)
                        size = len(json.dumps(result.structured_content, ensure_ascii=False))
                        answers.append((structured(result), time.monotonic() - started, size))
            finally:
                if executor is not None:
                    await executor.close()
        return answers

    return anyio.run(main)


def test_pagila_arguments_outside_their_type_are_invalid_before_the_database(
    pagila: str,  # noqa: F811
    pagila_snap: Path,
) -> None:
    stock = {"api": "public.film_in_stock"}
    answers = _calls(
        pagila_snap,
        pagila,
        [
            ("execute_api", {**stock, "args": {"p_film_id": 99999999999, "p_store_id": 1}}),
            ("execute_api", {**stock, "args": {"p_film_id": True, "p_store_id": 1}}),
            ("execute_api", {"api": "public.last_day", "args": {"arg1": "2026-01-01\x00"}}),
            ("execute_api", {**stock, "args": {f"x{i}": i for i in range(2000)}}),
        ],
    )
    for answer, _, size in answers:
        assert answer["status"] == "error" and answer["reason"] == "INVALID_ARGUMENT", answer
        assert size < 4000  # 2,000 unknown argument names are not repeated back
    assert "2147483647" in answers[0][0]["message"]


def test_long_queries_are_refused_at_once_without_echo(pagila: str, pagila_snap: Path) -> None:  # noqa: F811
    words = " ".join(["film"] * 3000)
    huge = "x" * 120_000
    answers = _calls(
        pagila_snap,
        pagila,
        [
            ("search", {"query": words}),
            ("search", {"query": huge}),
            ("search", {"query": "film\x00"}),
            ("plan_chain", {"request": words}),
            ("plan_chain", {"request": "film", "known": {f"k{i}": i for i in range(500)}}),
        ],
    )
    for answer, seconds, size in answers:
        assert answer["reason"] == "INVALID_ARGUMENT", answer
        assert seconds < 2 and size < 2000
    ok = _calls(pagila_snap, pagila, [("search", {"query": " ".join(["film"] * 150)})])
    assert ok[0][0].get("reason") != "INVALID_ARGUMENT"  # 150 words are within the bound


def test_a_live_catalog_shows_its_source_well_formed_without_secrets(pagila_snap: Path) -> None:
    with Snapshot.open(pagila_snap) as snap:
        root = snap.manifest()["source_root"]
    assert root.startswith("postgresql://") and "postgresql:/p" not in root
    assert ":@" not in root


@pytest.mark.parametrize(
    ("security", "anchor"),
    [
        ("auth:\n  keys_file: keys.yaml\nlimits:\n  per_principal: 60/fortnight\n", "limits.per_principal"),
        ("auth:\n  keys_file: missing-keys.yaml\n", "auth.keys_file"),
        ("auth:\n  keys_file: keys.yaml\nlimits:\n  per_tool: {search: 5/eon}\n", "limits.per_tool.search"),
        ("auth:\n  keys_file: bad-keys.yaml\n", "auth.keys_file"),
    ],
)
def test_security_config_errors_are_one_located_line(tmp_path: Path, security: str, anchor: str) -> None:
    from apiatlas.snapshot import write_snapshot
    from test_snapshot_catalog import mini_catalog

    snap = tmp_path / "mini.atlas"
    write_snapshot(mini_catalog(), snap, options={"source": "x"})
    (tmp_path / "keys.yaml").write_text("keys: []\n", encoding="utf-8")
    (tmp_path / "bad-keys.yaml").write_text("keys: [{nonsense: 1}]\n", encoding="utf-8")
    (tmp_path / "security.yaml").write_text(security, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "serve", str(snap), "--transport", "http", "--port", "0",
         "--security", str(tmp_path / "security.yaml")],
        capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT / "src")},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: BAD_CONFIG:"), done.stderr
    assert "security.yaml" in lines[0] and anchor in lines[0]
