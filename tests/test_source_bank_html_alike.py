"""Alike parameters, columns and error codes are one instance in a loaded catalog; nothing else changes."""

from __future__ import annotations

import pickle
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.reduction import ForkingPickler
from pathlib import Path

from apiatlas.catalog.compact import all_fields
from apiatlas.catalog.model import Api, Catalog, Column, ErrorCode, Param
from apiatlas.drift import DriftKind, merge_with_catalog
from apiatlas.passes import PASSES, run_passes
from apiatlas.passes.config import BuildConfig
from apiatlas.sources.bank_html.alike import Alike, receiving, sending
from apiatlas.sources.bank_html.assemble import assemble_catalog
from apiatlas.sources.bank_html.loader import _found_pages, _parse_one, load_bank_docs
from apiatlas.sources.bank_html.records import (
    ApiPage,
    ParsedPage,
    TablePage,
    new_column,
    new_param,
    send_entities_compactly,
    share_texts,
)
from apiatlas.sources.overlay_files import read_overlays

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def _entities(catalog: Catalog) -> list[Param | Column | ErrorCode]:
    found: list[Param | Column | ErrorCode] = []
    for api in catalog.apis.values():
        found += [*api.params, *api.errors]
        for table in [*api.input_tables, *api.output_tables]:
            found += table.columns
    return found


def _each_page_its_own(root: Path) -> Catalog:
    """The catalog assembled from pages parsed one by one, no page's entity shared with another's."""
    pages = [_parse_one((kind, file, str(root), inside)) for kind, file, inside in _found_pages(root)]
    return assemble_catalog(pages)


def _refined(catalog: Catalog) -> Catalog:
    config = BuildConfig.load(BANK / "apiatlas.yaml", source_kind=catalog.source_kind)
    overlays, _ = read_overlays(BANK / "overlays")  # the operator's amendments, as a compile merges them
    return run_passes(catalog, config, passes=PASSES[:-1], overlays=overlays)


def test_alike_entities_of_a_loaded_catalog_are_one_instance() -> None:
    catalog = load_bank_docs(BANK / "docs", workers=2)
    entities = _entities(catalog)
    by_value: dict[tuple[object, ...], set[int]] = {}
    for entity in entities:
        key = (type(entity), entity.model_dump_json())  # no schema yet: the values alone
        by_value.setdefault(key, set()).add(id(entity))
    assert len(by_value) < len(entities)  # the sample bank repeats its fields
    assert all(len(ids) == 1 for ids in by_value.values())


def test_shared_entities_give_the_catalog_and_refined_catalog_of_entities_apart() -> None:
    shared, apart = load_bank_docs(BANK / "docs", workers=1), _each_page_its_own(BANK / "docs")
    assert len({id(e) for e in _entities(shared)}) < len({id(e) for e in _entities(apart)})
    assert shared.model_dump_json() == apart.model_dump_json()
    assert _refined(shared).model_dump_json() == _refined(apart).model_dump_json()


def test_only_equal_values_of_equal_types_are_alike() -> None:
    first = new_param("Flag", "DSINT", False, "флаг", "1", None)
    same = new_param("Flag", "DSINT", False, "флаг", "1", None)
    number = Param(name="Flag", domain_type="DSINT", description="флаг", default=1)  # 1, not "1"
    typed = new_column("ID", "DSIDENTIFIER", "ID")
    typed.json_schema = {"type": "integer"}  # a schema already given: its own
    alike = Alike()
    pages = [
        TablePage(file="T_A.htm", name="A", columns=[new_column("ID", "DSIDENTIFIER", "ID"), typed]),
        TablePage(file="T_B.htm", name="B", columns=[new_column("ID", "DSIDENTIFIER", "ID"), typed]),
    ]
    for page in pages:
        share_texts(ParsedPage(file=page.file, sha256="", page=page), alike.texts, alike)
    assert pages[0].columns[0] is pages[1].columns[0]
    assert pages[1].columns[1] is typed and len(alike.by_values) == 1
    params = [first, same, number]
    api_pages = [ApiPage(file=f"API_{n}.htm", key=f"API_{n}", params=[p]) for n, p in enumerate(params)]
    for api_page in api_pages:
        share_texts(ParsedPage(file=api_page.file, sha256="", page=api_page), alike.texts, alike)
    assert api_pages[1].params[0] is first
    assert api_pages[2].params[0] is number


def test_entities_sent_by_a_worker_are_built_once_per_alike_values_while_received() -> None:
    sent = [new_column("ID", "DSIDENTIFIER", "ID"), new_column("ID", "DSIDENTIFIER", "ID")]
    sent.append(Column(name="ID", domain_type="DSIDENTIFIER", description="ID", json_schema={"type": "int"}))
    alike = Alike()
    send_entities_compactly(alike.token)  # what each parse worker of the load of ``alike`` does first
    try:
        data = ForkingPickler.dumps(sent)
    finally:
        sending(None)
        for cls in (Param, Column, ErrorCode):
            ForkingPickler._extra_reducers.pop(cls, None)  # type: ignore[attr-defined]
    with receiving(alike), receiving(Alike()) as other:  # another load receiving at once
        first, again = pickle.loads(data), pickle.loads(data)
    apart = pickle.loads(data)  # outside ``receiving``: each built as sent
    assert first == apart == sent and [c.model_dump() for c in first] == [c.model_dump() for c in sent]
    assert first[0] is first[1] is again[0] and first[0].model_fields_set is all_fields(Column)
    assert first[2] is not again[2]  # a JSON Schema given: its own
    assert apart[0] is not apart[1] and len(alike.by_values) == 1 and not other.by_values


def _param(catalog: Catalog, key: str, name: str) -> Param:
    return next(p for p in catalog.apis[key].params if p.name == name)


def test_a_drift_merge_amending_one_apis_shared_parameter_leaves_the_others_alone() -> None:
    """The drift merge gives one API the database's type and requiredness of a parameter the loaded docs
    share among several APIs: only that API's parameter changes, in the merged and the refined catalog."""
    docs = load_bank_docs(BANK / "docs", workers=1)
    name = "BranchCode"
    named = [key for key in sorted(docs.apis) if any(p.name == name for p in docs.apis[key].params)]
    shared = _param(docs, named[0], name)
    users = [key for key in named if _param(docs, key, name) is shared]
    assert len(users) >= 2
    before = docs.model_dump_json()
    routine = Api(
        key=f"api.{users[0]}",
        object_key="",
        params=[Param(name=f"p_{name}", domain_type="integer", required=not shared.required)],
    )
    merged, report = merge_with_catalog(docs, Catalog(source_kind="postgres", apis={routine.key: routine}))
    assert {case.kind for case in report.cases if case.param == name} >= {
        DriftKind.PARAM_TYPE_MISMATCH,
        DriftKind.PARAM_REQUIRED_MISMATCH,
    }
    assert docs.model_dump_json() == before  # the documentation the merge read is as loaded
    refined = run_passes(merged, BuildConfig.for_source(merged.source_kind), passes=PASSES[:-1])
    amended = _param(refined, users[0], name)
    assert (amended.domain_type, amended.required) == ("integer", not shared.required)
    assert amended.json_schema["description"].endswith("[integer]")  # typed by the database's type
    apart = _refined(_each_page_its_own(BANK / "docs"))  # no entity shared: what each other API must hold
    for key in users[1:]:
        other = _param(refined, key, name)
        assert (other.domain_type, other.required) == (shared.domain_type, shared.required)
        assert other.json_schema == _param(apart, key, name).json_schema


def test_loads_in_two_threads_share_no_entity_and_leave_nothing_receiving() -> None:
    """Two loads at once in one process (a service compiling two folders on threads): each looks its
    workers' entities up among its own alike ones, and once both have ended an entity a worker sends is
    built as sent. Load ``a`` starts receiving first and ends first; ``b`` starts after it and ends last."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def progress(entered: threading.Event, wait: threading.Event) -> Callable[[int, int], None]:
        def step(done: int, total: int) -> None:
            entered.set()
            if done == total:
                wait.wait(60)  # not a measure: keeps both loads receiving at once, in this order

        return step

    def load_a() -> Catalog:
        try:
            return load_bank_docs(BANK / "docs", workers=2, progress=progress(a_in, b_in))
        finally:
            a_out.set()

    with ThreadPoolExecutor(2) as threads:
        a = threads.submit(load_a)
        assert a_in.wait(60)
        b = threads.submit(load_bank_docs, BANK / "docs", workers=2, progress=progress(b_in, a_out))
        catalogs = a.result(), b.result()
    held = [{id(entity) for entity in _entities(catalog)} for catalog in catalogs]
    assert catalogs[0].model_dump_json() == catalogs[1].model_dump_json()
    assert not held[0] & held[1]
    column = next(entity for entity in _entities(catalogs[0]) if isinstance(entity, Column))
    sent = [column.model_copy(update={"json_schema": {}}) for _ in range(2)]
    send_entities_compactly()  # what each parse worker does first
    try:
        data = ForkingPickler.dumps(sent)
    finally:
        for cls in (Param, Column, ErrorCode):
            ForkingPickler._extra_reducers.pop(cls, None)  # type: ignore[attr-defined]
    received = pickle.loads(data)
    assert received == sent and received[0] is not received[1]  # no load receiving: each built as sent
    assert not {id(entity) for entity in received} & (held[0] | held[1])
