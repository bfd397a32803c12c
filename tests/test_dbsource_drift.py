"""Drift between the sample bank's documentation and its database, with drift injected by the test."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from apiatlas.catalog.model import Catalog
from apiatlas.drift import DriftKind, merge_with_catalog, write_drift_report
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.samples.bankdb import load_bank_database
from apiatlas.sources import load_source

BANK_DOCS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "docs"
# The api schema, without the two row functions the bank documentation does not describe (a real
# drift of the sample bank, found by this module: API_Acc_GetRestHistory, API_Crncy_GetRateList).
SELECTION = "#include=api&exclude=api.API_Acc_GetRestHistory,api.API_Crncy_GetRateList"
INJECTED = [
    # documented APIs missing from the database
    'DROP PROCEDURE api."API_Card_FindListByAccID"',
    'DROP PROCEDURE api."API_Sec_FindByISIN"',
    # undocumented procedures
    'CREATE PROCEDURE api."API_Prs_SetNickName"(p_personid numeric, p_nick varchar) LANGUAGE plpgsql AS $$ '
    "BEGIN UPDATE bank.person SET sur_name = p_nick WHERE person_id = p_personid; END $$",
    'CREATE FUNCTION api."API_Acc_CountAll"() RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT 1::bigint $$',
    # a parameter type mismatch (documented DSACCNUMBER varchar(25))
    'DROP PROCEDURE api."API_Acc_FindByNumber"',
    'CREATE PROCEDURE api."API_Acc_FindByNumber"(p_accnumber bigint) LANGUAGE plpgsql AS $$ '
    "BEGIN NULL; END $$",
    # a required documented parameter that the database makes optional
    'DROP PROCEDURE api."API_Prs_FindListByINN"',
    'CREATE PROCEDURE api."API_Prs_FindListByINN"(p_inn varchar DEFAULT NULL) LANGUAGE plpgsql AS $$ '
    "BEGIN NULL; END $$",
]
EXPECTED = {
    (DriftKind.MISSING_IN_DATABASE, "API_Card_FindListByAccID", None),
    (DriftKind.MISSING_IN_DATABASE, "API_Sec_FindByISIN", None),
    (DriftKind.UNDOCUMENTED, "api.API_Prs_SetNickName", None),
    (DriftKind.UNDOCUMENTED, "api.API_Acc_CountAll", None),
    (DriftKind.PARAM_TYPE_MISMATCH, "API_Acc_FindByNumber", "AccNumber"),
    (DriftKind.PARAM_REQUIRED_MISMATCH, "API_Prs_FindListByINN", "INN"),
}


@pytest.fixture(scope="module")
def drift_db(embedded_pg: EmbeddedPostgres) -> str:
    """A bank database of this module's own (the shared ``bank_db`` must not change)."""
    uri = embedded_pg.create_database("apiatlas_drift")
    with psycopg.connect(uri) as conn:
        loaded = conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname = 'api'").fetchone() == (1,)
    if not loaded:
        load_bank_database(uri, with_test_procedures=False)
    return uri


@pytest.fixture(scope="module")
def documented_scope(drift_db: str) -> Catalog:
    """The bank docs restricted to the APIs the pristine database implements (the rest is the docs' own)."""
    database = load_source(Path(drift_db + SELECTION))
    implemented = {key.split(".", 1)[1] for key in database.apis}
    docs = load_source(BANK_DOCS)
    docs.apis = {k: a for k, a in docs.apis.items() if k in implemented}
    assert len(docs.apis) >= 15
    return docs


def test_pristine_bank_has_no_drift(drift_db: str, documented_scope: Catalog) -> None:
    merged, report = merge_with_catalog(documented_scope, load_source(Path(drift_db + SELECTION)))
    assert report.cases == [], [c.model_dump() for c in report.cases]
    assert report.matched == len(documented_scope.apis)
    fio = merged.apis["API_Prs_FindListByFIO"]
    assert fio.title == documented_scope.apis["API_Prs_FindListByFIO"].title  # meaning from the docs
    assert fio.executor.target == '"api"."API_Prs_FindListByFIO"'  # calling from the catalog
    assert [i["param"] for i in fio.extra["pg_arguments"]] == [p.name for p in fio.params]


def test_injected_drift_is_reported_exactly(
    embedded_pg: EmbeddedPostgres, drift_db: str, documented_scope: Catalog, tmp_path: Path
) -> None:
    injected_uri = embedded_pg.create_database("apiatlas_drift_injected")
    load_bank_database(injected_uri, with_test_procedures=False)
    with psycopg.connect(injected_uri, autocommit=True) as conn:
        for statement in INJECTED:
            conn.execute(statement.encode())
    merged, report = merge_with_catalog(documented_scope, load_source(Path(injected_uri + SELECTION)))
    assert {(c.kind, c.api, c.param) for c in report.cases} == EXPECTED
    assert len(report.cases) == len(EXPECTED)
    assert all(c.decision for c in report.cases)
    assert merged.apis["API_Card_FindListByAccID"].implemented is False
    assert merged.apis["api.API_Prs_SetNickName"].approved is None
    assert merged.apis["api.API_Prs_SetNickName"].side_effect.value == "write"
    assert merged.apis["API_Acc_FindByNumber"].params[0].domain_type == "bigint"
    assert merged.apis["API_Prs_FindListByINN"].params[0].required is False

    markdown, as_json = write_drift_report(report, tmp_path / "drift.md")
    text = markdown.read_text(encoding="utf-8")
    for _kind, api, _param in EXPECTED:
        assert api in text
    data = json.loads(as_json.read_text(encoding="utf-8"))
    assert len(data["cases"]) == len(EXPECTED)
