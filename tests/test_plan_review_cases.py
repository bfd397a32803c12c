"""Requests the planner's rules of issue 18 must not misread (each found by a review, a real compile of a
small spec): a read verb before "them" orders no write, a first name before "the" stays a name, a kind
named "people" keeps its own name, a container holding many kinds picks none of their writes."""

from __future__ import annotations

import pytest

from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.planning.actions import verb_of_it
from apiatlas.planning.planner import Planner
from apiatlas.planning.values import extract_values
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_rest_loose_ids import compiled_spec

INVOICE = "{type: object, properties: {id: {type: string}, amount: {type: number}, status: {type: string}}}"
PERSON = "{type: object, properties: {id: {type: string}, name: {type: string}}}"


def _by_path(path: str, method: str, summary: str, param: str, out: str) -> str:
    given = f"{{name: {param}, in: path, required: true, schema: {{type: string}}}}"
    return _op(path, method, summary, [], out).replace("parameters: []", f"parameters: [{given}]")


_INVOICES = _of("invoices", "{type: array, items: " + INVOICE + "}")
_PEOPLE = _of("results", "{type: array, items: " + PERSON + "}")
BILLING = "openapi: 3.0.0\ninfo: {title: Billing, version: '1'}\npaths:\n" + "".join(
    [
        _op("/invoices", "get", "List invoices", [], _INVOICES),
        _by_path("/invoices/{invoice_id}", "get", "Get an invoice", "invoice_id", INVOICE),
        _by_path("/invoices/{invoice_id}/void", "post", "Void an invoice", "invoice_id", OK),
        _by_path("/invoices/{invoice_id}/finalize", "post", "Finalize a draft", "invoice_id", INVOICE),
    ]
)
PEOPLE = "openapi: 3.0.0\ninfo: {title: Roster, version: '1'}\npaths:\n" + "".join(
    [
        _op("/people", "get", "List people", [("search", False)], _PEOPLE),
        _by_path("/people/{id}", "get", "Get a person", "id", PERSON),
        _op("/planets", "get", "List planets", [("search", False)], _PEOPLE),
        _by_path("/planets/{id}", "get", "Get a planet", "id", PERSON),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def billing(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "review_billing", BILLING)


@pytest.fixture(scope="module")
def roster(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "review_roster", PEOPLE)


def _top(planner: Planner, request: str) -> list[str]:
    result = planner.plan(request)
    return [s.api for s in result.chains[0].steps] if result.chains else []


@pytest.mark.parametrize(
    "request_text", ["Get the invoices and sort them by amount", "List the invoices and group them by status"]
)
def test_a_read_verb_before_them_orders_no_write(billing: Snapshot, request_text: str) -> None:
    top = _top(Planner(billing), request_text)
    assert top[0] == "GET /invoices" and all(k.startswith("GET ") for k in top)


def test_a_write_verb_before_it_still_plans_that_write(billing: Snapshot) -> None:
    top = _top(Planner(billing), "Get the latest invoice and void it")
    assert top[-1] == "POST /invoices/{invoice_id}/void"


def test_a_clause_word_before_it_opens_no_action() -> None:
    assert verb_of_it("whether it is running") == "" and verb_of_it("why it restarted") == ""
    assert verb_of_it("void it") == "void"


@pytest.mark.parametrize(
    ("request_text", "name"),
    [
        ("Catherine the Great's children", "Catherine the Great"),
        ("Acme the company: list its invoices", "Acme"),
    ],
)
def test_a_first_name_before_the_stays_a_name(request_text: str, name: str) -> None:
    assert any(name in f.value for f in extract_values(request_text, CatalogVocabulary()))


def test_decode_the_opens_a_sentence_as_a_verb() -> None:
    found = extract_values("Decode the database secret", CatalogVocabulary())
    assert not [f for f in found if f.kind == "entity"]


def test_a_kind_named_people_keeps_its_name(roster: Snapshot) -> None:
    assert singular("people") == "people" and singular("people", short=False) == "person"
    assert "people" in roster.vocabulary().kind_set
    assert _top(Planner(roster), "Find the person Luke Skywalker") == ["GET /people", "GET /people/{id}"]


_KINDS = ("boxes", "crates", "shelves", "pallets", "bins", "trays", "racks", "drawers", "cases", "carts")
DEPOT = "openapi: 3.0.0\ninfo: {title: Depot, version: '1'}\npaths:\n" + "".join(
    [
        _op("/depots", "get", "List depots", [], _of("depots", "{type: array, items: " + PERSON + "}")),
        _op("/users", "get", "List users", [], _of("users", "{type: array, items: " + PERSON + "}")),
        *(
            _by_path(f"/depots/{{depot}}/{kind}", "post", f"Create a {kind[:-1]} in a depot", "depot", OK)
            for kind in _KINDS
        ),
        *(_by_path(f"/{kind}/{{id}}", "get", f"Get a {kind[:-1]}", "id", PERSON) for kind in _KINDS),
    ]
)


def test_a_place_holding_many_kinds_adds_none_of_their_writes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Ten kinds live in a depot: "… to the depot D" does not say which one the request adds to."""
    depot = compiled_spec(tmp_path_factory, "review_depot", DEPOT)
    planner = Planner(depot)
    result = planner.plan("Add the user bob to the depot main")
    assert 0 < len(result.targets) <= planner.limits.targets
