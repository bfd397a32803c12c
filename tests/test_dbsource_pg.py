"""PostgreSQL live catalog as a source: pagila loaded into the embedded server, compiled, called over MCP."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import psycopg
import pytest
from mcp.client import Client

from apiatlas.build import compile_docs
from apiatlas.catalog.model import SideEffect
from apiatlas.commands.serve import make_executor
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.errors import ConfigError
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from apiatlas.sources import detect_source, load_source
from apiatlas.sources.postgres import database_url, load_pg_catalog
from shared_data import shared
from test_server_catalog import structured

PAGILA = shared("sql", "pagila", "pagila-schema.sql")
needs_pagila = pytest.mark.skipif(not PAGILA.is_file(), reason=f"pagila schema not found at {PAGILA}")
# Comments added by the test (pagila has none on routines): the routine text, then one line per argument.
COMMENTS = {
    "FUNCTION public.inventory_in_stock(integer)": (
        "Whether a copy is in the store.\np_inventory_id: the copy"
    ),
    "TABLE public.customer": "Customers of the stores",
}
_CREATE = re.compile(r"^CREATE FUNCTION public\.(\w+)\((.*?)\) RETURNS (\S+)", re.MULTILINE)


def pagila_sql(text: str) -> str:
    """The dump as PostgreSQL 16 accepts it: two PostgreSQL 18 features replaced (documented adjustments)."""
    text = re.sub(r"\)\s+VIRTUAL\b", ") STORED", text)  # virtual generated column -> stored
    return text.replace("uuidv7()", "gen_random_uuid()")  # uuidv7() is PostgreSQL 18


@pytest.fixture(scope="module")
def pagila(embedded_pg: EmbeddedPostgres) -> str:
    if not PAGILA.is_file():
        pytest.skip(f"pagila schema not found at {PAGILA}")
    uri = embedded_pg.create_database("apiatlas_pagila")
    with psycopg.connect(uri, autocommit=True) as conn:
        if conn.execute("SELECT count(*) FROM pg_proc WHERE proname = 'rewards_report'").fetchone() == (0,):
            conn.execute(pagila_sql(PAGILA.read_text(encoding="utf-8")).encode())
        for target, text in COMMENTS.items():
            conn.execute(f"COMMENT ON {target} IS {psycopg.sql.quote(text)}".encode())
    return uri


def test_urls_survive_a_path_and_passwords_are_refused() -> None:
    assert database_url(Path("postgresql://me@db.example/core")) == "postgresql://me@db.example/core"
    assert detect_source(Path("postgresql://me@db.example/core")) == "postgresql"
    with pytest.raises(ConfigError, match="PGPASSWORD"):
        load_pg_catalog("postgresql://me:secret@db.example/core")
    with pytest.raises(ConfigError, match="fragment"):
        load_pg_catalog("postgresql://me@db.example/core#schemas=api")


@needs_pagila
def test_every_pagila_function_with_signature_and_comments(pagila: str) -> None:
    catalog = load_source(Path(pagila))
    declared = {
        m.group(1): m.group(2) for m in _CREATE.finditer(PAGILA.read_text()) if m.group(3) != "trigger"
    }
    assert set(declared) == {k.removeprefix("public.") for k in catalog.apis}
    for name, arguments in declared.items():
        api = catalog.apis[f"public.{name}"]
        assert api.extra["signature"] == f"public.{name}({arguments})"
        inputs = [a for a in arguments.split(", ") if a and not a.startswith("OUT ")]
        assert len(api.params) == len(inputs)
    stock = catalog.apis["public.inventory_in_stock"]
    assert stock.title == "Whether a copy is in the store."
    assert stock.params[0].description == "the copy"
    rewards = catalog.apis["public.rewards_report"]
    assert rewards.output_tables[0].description == "Customers of the stores"
    assert "customer_id" in [c.name for c in rewards.output_tables[0].columns]
    assert rewards.side_effect is SideEffect.DESTRUCTIVE  # EXECUTE of dynamic SQL
    assert stock.side_effect is SideEffect.READ
    assert catalog.stats["skipped_routines"]["trigger function"] == 1
    only = load_source(Path(pagila + "#include=public.film_*"))
    assert set(only.apis) == {"public.film_in_stock", "public.film_not_in_stock"}


@needs_pagila
def test_compile_pagila_and_call_it_through_mcp(pagila: str, tmp_path: Path) -> None:
    config = tmp_path / "build.yaml"
    config.write_text("funnel: []\n", encoding="utf-8")
    result = compile_docs(Path(pagila), overlays_dir=None, config_path=config, out=tmp_path / "pagila.atlas")
    assert result.catalog.source_kind == "postgresql"
    with psycopg.connect(pagila) as conn:
        inventory = conn.execute("SELECT count(*) FROM public.inventory").fetchone()

    async def main() -> dict[str, Any]:
        with Snapshot.open(result.snapshot) as snap:
            server_config = ServerConfig()
            executor = make_executor(pagila, snap, server_config)
            assert executor is not None
            try:
                async with Client(build_server(snap, executor, server_config)) as client:
                    stock = structured(await client.call_tool(
                        "atlas_execute_api",
                        {"api": "public.inventory_in_stock", "args": {"p_inventory_id": 1}},
                    ))  # fmt: skip
                    last = structured(await client.call_tool(
                        "atlas_execute_api",
                        {"api": "public.last_day", "args": {"arg1": "2026-02-10T12:00:00+00:00"}},
                    ))  # fmt: skip
                    return {"stock": stock, "last": last}
            finally:
                await executor.close()

    answers = anyio.run(main)
    assert inventory == (0,)  # schema only: no rentals, so every copy is in stock
    assert answers["stock"]["status"] == "ok", answers["stock"]
    assert answers["stock"]["tables"][0]["rows"][0] in ([True], {"inventory_in_stock": True})
    assert answers["last"]["status"] == "ok", answers["last"]
    assert "2026-02-28" in str(answers["last"]["tables"][0]["rows"][0])


def test_bank_session_tables_are_not_writes_but_real_tables_are(bank_db: str) -> None:
    catalog = load_source(Path(bank_db + "#include=api"))
    effects = {key: api.side_effect for key, api in catalog.apis.items()}
    assert effects.pop("api.API_Test_Write") is SideEffect.WRITE  # INSERT INTO bank.write_probe
    # every other procedure only empties and fills its session (temporary) tables
    assert set(effects.values()) == {SideEffect.READ} and len(effects) >= 18
    fio = catalog.apis["api.API_Prs_FindListByFIO"]
    assert fio.title.startswith("Поиск физических лиц")
    assert [(p.name, p.required) for p in fio.params] == [
        ("p_surname", True),
        ("p_firstname", False),
        ("p_patronymic", False),
        ("p_birthdate", False),
    ]
    assert catalog.objects["api"].description.startswith("API учебного банка")
