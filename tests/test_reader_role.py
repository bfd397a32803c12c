"""The reader role, in the database itself: EXECUTE on the kept read APIs only, no table access, read-only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import psycopg
import pytest
from mcp.client import Client
from typer.testing import CliRunner

from apiatlas.build import compile_docs
from apiatlas.cli import app
from apiatlas.commands.serve import make_executor
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from test_dbsource_pg import PAGILA, pagila_sql
from test_server_catalog import structured

ROLE = "atlas_reader_test"
pytestmark = pytest.mark.skipif(not PAGILA.is_file(), reason=f"pagila schema not found at {PAGILA}")


@pytest.fixture(scope="module")
def own_pagila(embedded_pg: EmbeddedPostgres) -> str:
    """pagila in a database of its own (its routines are altered here; the shared one stays as it is)."""
    uri = embedded_pg.create_database("apiatlas_reader_role")
    with psycopg.connect(uri, autocommit=True) as conn:
        if conn.execute("SELECT count(*) FROM pg_proc WHERE proname = 'rewards_report'").fetchone() == (0,):
            conn.execute(pagila_sql(PAGILA.read_text(encoding="utf-8")).encode())
    return uri


def _as_role(uri: str) -> str:
    return uri.replace("postgresql://postgres:@", f"postgresql://{ROLE}@").replace(
        "postgresql://postgres@", f"postgresql://{ROLE}@"
    )


def test_the_reader_can_only_execute_the_kept_read_apis(own_pagila: str, tmp_path: Path) -> None:
    config = tmp_path / "build.yaml"
    config.write_text("funnel: []\n", encoding="utf-8")
    snap = tmp_path / "pagila.atlas"
    compile_docs(Path(own_pagila), overlays_dir=None, config_path=config, out=snap, embeddings="none")
    printed = CliRunner().invoke(app, ["db", "reader-role", str(snap), "--db", own_pagila, "--role", ROLE])
    assert printed.exit_code == 0, printed.output
    assert "SECURITY DEFINER" in printed.stdout and "default_transaction_read_only = on" in printed.stdout
    assert "rewards_report" not in printed.stdout  # a destructive API is never granted
    applied = CliRunner().invoke(
        app, ["db", "reader-role", str(snap), "--db", own_pagila, "--role", ROLE, "--apply"]
    )
    assert applied.exit_code == 0, applied.output

    reader = _as_role(own_pagila)
    assert reader != own_pagila
    with psycopg.connect(reader, autocommit=True) as conn:
        assert conn.execute("SHOW default_transaction_read_only").fetchone() == ("on",)
        assert conn.execute("SELECT public.inventory_in_stock(1)").fetchone() == (
            True,
        )  # granted, reads tables
        for refused in ("SELECT count(*) FROM public.film", "SELECT public.rewards_report(1, 1.0)"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(refused)
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("CREATE TABLE public.x (n int)")

    async def main() -> dict[str, Any]:
        with Snapshot.open(snap) as opened:
            server_config = ServerConfig()
            executor = make_executor(reader, opened, server_config)
            assert executor is not None
            try:
                async with Client(build_server(opened, executor, server_config)) as client:
                    return structured(
                        await client.call_tool(
                            "atlas_execute_api",
                            {"api": "public.inventory_in_stock", "args": {"p_inventory_id": 1}},
                        )
                    )
            finally:
                await executor.close()

    answer = anyio.run(main)
    assert answer["status"] == "ok", answer  # the server works under the reader login
