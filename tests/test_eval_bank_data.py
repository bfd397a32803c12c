"""Tests of the sample bank's eval sets: they load, gold APIs are kept, chains fit the APIs' contracts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from apiatlas.build import compile_docs, default_overlays_dir
from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.evals.bank_data import (
    BANK_EVAL_DIR,
    ChainCase,
    ChainSet,
    EvalDataError,
    RetrievalSet,
    load_chain_set,
    load_retrieval_set,
)
from apiatlas.samples.bank_data import TABLE_COLUMNS, generate_bank_data
from apiatlas.snapshot.reader import Snapshot

BANK_DOCS = BANK_EVAL_DIR.parent / "docs"
RETRIEVAL = BANK_EVAL_DIR / "retrieval.yaml"
CHAINS = BANK_EVAL_DIR / "chains.yaml"
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")
NO_TYPE_ONLY = 3  # edge ranks 1-3: declared, name + type, alias


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    """The sample bank compiled with its overlays, as the demo and the evals compile it."""
    out = tmp_path_factory.mktemp("eval-bank") / "bank.atlas"
    compile_docs(
        BANK_DOCS, overlays_dir=default_overlays_dir(BANK_DOCS), config_path=None, out=out, write_report=False
    )
    with Snapshot.open(out) as snap:
        yield snap


@pytest.fixture(scope="module")
def retrieval() -> RetrievalSet:
    return load_retrieval_set(RETRIEVAL)


@pytest.fixture(scope="module")
def chains() -> ChainSet:
    return load_chain_set(CHAINS)


def _kept_api(snap: Snapshot, key: str) -> Api:
    api = snap.get_api(key)
    assert api is not None and api.key == key, f"{key}: no such API in the sample bank"
    assert api.funnel.kept, f"{key}: dropped by the funnel ({api.funnel.reason})"
    return api


# --- retrieval set ------------------------------------------------------------------------------------------


def test_retrieval_set_is_large_and_mostly_russian(retrieval: RetrievalSet) -> None:
    assert len(retrieval.requests) >= 160
    assert len(retrieval.out_of_catalog) >= 40
    english = sum(q.lang == "en" for q in retrieval.requests)
    assert 0.05 <= english / len(retrieval.requests) <= 0.2
    assert all(len(q.gold) <= 2 for q in retrieval.requests)


def test_language_label_matches_the_text(retrieval: RetrievalSet, chains: ChainSet) -> None:
    for entry in [*retrieval.requests, *retrieval.out_of_catalog, *chains.cases]:
        cyrillic, latin = len(CYRILLIC.findall(entry.query)), len(LATIN.findall(entry.query))
        if entry.lang == "ru":
            assert cyrillic > 0, f"{entry.id}: labelled ru but has no Russian word"
        else:
            assert latin > cyrillic, f"{entry.id}: labelled en but mostly Cyrillic"


def test_every_gold_api_exists_and_is_kept(retrieval: RetrievalSet, bank: Snapshot) -> None:
    for query in retrieval.requests:
        for key in query.gold:
            _kept_api(bank, key)


def test_gold_answers_cover_most_business_objects(retrieval: RetrievalSet, bank: Snapshot) -> None:
    objects_with_kept, total = bank.list_objects(limit=1000)
    covered = {bank.api_object(key) for key in retrieval.gold_keys()}
    assert total > 0 and len(covered & {o.key for o in objects_with_kept}) / total >= 0.8


def test_apis_with_overlays_are_asked_for_several_times(retrieval: RetrievalSet, bank: Snapshot) -> None:
    """The core APIs (the ones the operator wrote overlays for) are what analysts ask most."""
    core = [key for key in bank.all_api_keys() if (api := bank.get_api(key)) and api.overlay]
    assert core, "the sample bank has overlays"
    for key in core:
        asked = sum(key in q.gold for q in retrieval.requests)
        assert asked >= 2, f"{key} is the gold answer of {asked} request(s)"


def test_out_of_catalog_requests_name_what_is_missing(retrieval: RetrievalSet, bank: Snapshot) -> None:
    kinds = {q.kind for q in retrieval.out_of_catalog}
    assert kinds == {"unrelated", "bank_absent", "dropped"}
    kept = set(bank.all_api_keys())
    documented = set(bank.all_api_keys(include_dropped=True))
    for query in retrieval.out_of_catalog:
        if query.kind == "dropped":
            assert query.absent_api, f"{query.id}: name the documented API the funnel dropped"
            for key in query.absent_api:
                assert key in documented, f"{query.id}: {key} is not documented"
                assert key not in kept, f"{query.id}: {key} is kept, so the request is in the catalog"
        else:
            assert not query.absent_api, f"{query.id}: only 'dropped' requests name an absent API"


# --- chain set ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Input:
    name: str
    domain_type: str
    description: str
    required: bool
    schema: dict[str, Any]


def _inputs(api: Api) -> dict[str, _Input]:
    found = {
        p.name: _Input(p.name, p.domain_type, p.description, p.required, p.json_schema) for p in api.params
    }
    for table in api.input_tables:  # a session table the caller must fill: every column is needed
        for c in table.columns:
            found[c.name] = _Input(c.name, c.domain_type, c.description, True, c.json_schema)
    return found


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", text) is not None


def _feeders(needed: _Input, earlier: list[Api]) -> list[str]:
    """Output columns of earlier steps that can fill ``needed`` by the contracts.

    Same domain type and either the same name, or one side's description names the other field
    (``OwnerID``: "ID владельца счёта (ID физического лица, PersonID)").
    """
    out: list[str] = []
    for api in earlier:
        for table in api.output_tables:
            for column in table.columns:
                if column.domain_type != needed.domain_type:
                    continue
                if (
                    column.name == needed.name
                    or _names(needed.description, column.name)
                    or _names(column.description, needed.name)
                ):
                    out.append(f"{api.key}.{column.name}")
    return out


def _fits(value: Any, schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "integer":
        ok = isinstance(value, int) and not isinstance(value, bool)
        low, high = schema.get("minimum"), schema.get("maximum")
        return ok and (low is None or value >= low) and (high is None or value <= high)
    if kind == "string":
        if not isinstance(value, str) or len(value) > schema.get("maxLength", len(value)):
            return False
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return False
        if schema.get("format") == "date":
            try:
                date.fromisoformat(value)
            except ValueError:
                return False
        return True
    return True


def _chain_problems(case: ChainCase, chain: list[str], snap: Snapshot) -> list[str]:
    apis = [_kept_api(snap, key) for key in chain]
    problems: list[str] = []
    every_input: dict[str, _Input] = {}
    for step, api in enumerate(apis):
        inputs = _inputs(api)
        every_input.update(inputs)
        fed_by_earlier = False
        for needed in inputs.values():
            feeders = _feeders(needed, apis[:step])
            fed_by_earlier = fed_by_earlier or (needed.required and bool(feeders))
            if needed.required and needed.name not in case.known and not feeders:
                problems.append(f"step {step + 1} {api.key}: required {needed.name} has no source")
        if step > 0 and not fed_by_earlier:
            problems.append(f"step {step + 1} {api.key}: uses no output of an earlier step")
    for name, value in case.known.items():
        if name not in every_input:
            problems.append(f"known {name} is not an input of any step")
        elif not _fits(value, every_input[name].schema):
            problems.append(f"known {name}={value!r} does not fit {every_input[name].schema}")
    return problems


def test_chain_set_is_large_enough(chains: ChainSet) -> None:
    assert len(chains.cases) >= 35
    assert {len(c.chain) for c in chains.cases} >= {1, 2, 3, 4}
    assert sum(c.lang == "en" for c in chains.cases) >= 1


def test_every_chain_api_exists_and_is_kept(chains: ChainSet, bank: Snapshot) -> None:
    for key in sorted(chains.api_keys()):
        _kept_api(bank, key)


@pytest.mark.parametrize("case", load_chain_set(CHAINS).cases, ids=lambda c: c.id)
def test_chain_fits_the_contracts(case: ChainCase, bank: Snapshot) -> None:
    for chain in [case.chain, *case.also_ok]:
        assert _chain_problems(case, chain, bank) == [], chain


def test_chain_values_are_rows_of_the_sample_database(chains: ChainSet) -> None:
    """Named clients, INNs, account numbers, ISINs and deal numbers exist in the sample bank's data."""
    rows = generate_bank_data().rows

    def column(table: str, name: str) -> list[Any]:
        at = TABLE_COLUMNS[table].index(name)
        return [row[at] for row in rows[table]]

    persons = list(
        zip(*(column("person", c) for c in ("sur_name", "first_name", "patronymic", "inn")), strict=True)
    )
    values = {
        "AccNumber": set(column("account", "acc_number")),
        "ISIN": set(column("security", "isin")),
        "DealNumber": set(column("deal_security", "deal_number")),
    }
    checked = 0
    for case in chains.cases:
        wanted = [case.known.get(k) for k in ("SurName", "FirstName", "Patronymic", "INN")]
        if any(w is not None for w in wanted):
            matches = [p for p in persons if all(w is None or w == v for w, v in zip(wanted, p, strict=True))]
            assert matches, f"{case.id}: no such client {wanted}"
            checked += 1
        for name, known in values.items():
            securities_deal = name != "DealNumber" or "API_DealSecurity_FindByNumber" in case.chain
            if name in case.known and securities_deal:
                assert case.known[name] in known, f"{case.id}: {name}={case.known[name]} not in the data"
                checked += 1
    assert checked >= len(chains.cases) // 2


def test_every_chain_link_is_an_edge_of_the_compiled_graph(chains: ChainSet, bank: Snapshot) -> None:
    """The planner walks the graph: every later step has an edge (not type-only) from an earlier step."""
    for case in chains.cases:
        for chain in [case.chain, *case.also_ok]:
            for step in range(1, len(chain)):
                producers = {e.producer for e in bank.edges_into(chain[step], min_rank=NO_TYPE_ONLY)}
                assert producers & set(chain[:step]), f"{case.id}: nothing feeds {chain[step]}"


def test_chain_checker_finds_a_broken_chain(bank: Snapshot) -> None:
    """The contract check is not vacuous: a step with no source and an unused known value are reported."""
    broken = ChainCase(
        id="broken",
        query="остаток по номеру счёта без поиска счёта",
        known={"AccNumber": "40817810100012000031", "ISIN": "RU000A751GU9"},
        chain=["API_Acc_GetRest"],
    )
    problems = _chain_problems(broken, broken.chain, bank)
    assert any("required AccountID has no source" in p for p in problems)
    assert any("known AccNumber is not an input" in p for p in problems)
    unfed = ChainCase(
        id="unfed",
        query="ИНН и ISIN",
        known={"INN": "772976034842", "ISIN": "RU000A751GU9"},
        chain=["API_Prs_FindListByINN", "API_Sec_FindByISIN"],
    )
    assert any("uses no output of an earlier step" in p for p in _chain_problems(unfed, unfed.chain, bank))
    bad_value = ChainCase(
        id="bad", query="клиент по ИНН", known={"INN": "12345"}, chain=["API_Prs_FindListByINN"]
    )
    assert any("does not fit" in p for p in _chain_problems(bad_value, bad_value.chain, bank))


# --- loader errors -----------------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "set.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_file_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(EvalDataError) as err:
        load_retrieval_set(tmp_path / "nope.yaml")
    assert err.value.code is ReasonCode.INVALID_ARGUMENT
    assert err.value.location.file == str(tmp_path / "nope.yaml")


def test_bad_yaml_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, 'name: x\nrequests:\n  - {id: a, query: "остаток", gold: [API_Acc_GetRest]\n')
    with pytest.raises(EvalDataError) as err:
        load_retrieval_set(path)
    assert err.value.code is ReasonCode.SCHEMA_ERROR
    assert err.value.location.line is not None


def test_entry_without_gold_names_its_line_and_id(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "name: x\nrequests:\n"
        '  - {id: ok-1, query: "остаток на счёте", gold: [API_Acc_GetRest]}\n'
        '  - {id: no-gold, query: "обороты по счёту", gold: []}\n',
    )
    with pytest.raises(EvalDataError) as err:
        load_retrieval_set(path)
    assert err.value.location.line == 4
    assert "no-gold" in (err.value.location.anchor or "")
    assert "gold" in err.value.message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('  - {id: a, query: "остаток", gold: [X], extra: 1}\n', "extra"),
        ('  - {id: a, query: "остаток", gold: [X, X]}\n', "repeats"),
        ('  - {id: A B, query: "остаток", gold: [X]}\n', "lower-case"),
        (
            '  - {id: a, query: "остаток", gold: [X]}\n  - {id: a, query: "обороты", gold: [Y]}\n',
            "already used",
        ),
        (
            '  - {id: a, query: "остаток", gold: [X]}\n  - {id: b, query: "ОСТАТОК", gold: [Y]}\n',
            "already appears",
        ),
    ],
    ids=["unknown-field", "repeated-gold", "bad-id", "repeated-id", "repeated-request"],
)
def test_bad_retrieval_entries_are_refused(tmp_path: Path, body: str, expected: str) -> None:
    with pytest.raises(EvalDataError) as err:
        load_retrieval_set(_write(tmp_path, "name: x\nrequests:\n" + body))
    assert expected in err.value.message


def test_out_of_catalog_kind_is_checked(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        'name: x\nrequests:\n  - {id: a, query: "остаток", gold: [X]}\n'
        'out_of_catalog:\n  - {id: b, query: "погода", kind: weather}\n',
    )
    with pytest.raises(EvalDataError) as err:
        load_retrieval_set(path)
    assert "out_of_catalog[0]" in (err.value.location.anchor or "")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("    known: {AccNumber: 40817810100012000031}\n    chain: [A, B]\n", "quote it"),
        ("    chain: [A, B, C, D, E]\n", "chain"),
        ("    chain: []\n", "chain"),
        ("    chain: [A]\n    also_ok: [[A, B, C, D, E]]\n", "1 to 4 steps"),
    ],
    ids=["unquoted-account-number", "five-steps", "empty-chain", "long-alternative"],
)
def test_bad_chain_entries_are_refused(tmp_path: Path, body: str, expected: str) -> None:
    path = _write(tmp_path, 'name: x\ncases:\n  - id: c1\n    query: "остаток на счёте"\n' + body)
    with pytest.raises(EvalDataError) as err:
        load_chain_set(path)
    assert expected in err.value.message
    assert err.value.location.line == 3


def test_dates_in_known_values_become_iso_strings(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        'name: x\ncases:\n  - id: c1\n    query: "обороты за март"\n'
        "    known: {DateFrom: 2026-03-01, OnlyOpenFlag: 1}\n    chain: [A, B]\n",
    )
    case = load_chain_set(path).cases[0]
    assert case.known == {"DateFrom": "2026-03-01", "OnlyOpenFlag": 1}
