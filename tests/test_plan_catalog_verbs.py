"""The verbs a catalog's writes say (issue 18, chains): a request opening with one orders that write,
though the language's lists do not know the word ("Finalize the latest invoice", "Evict pod web-3")."""

from __future__ import annotations

import pytest

from apiatlas.planning.actions import action_verb, split_actions
from apiatlas.planning.catalog_verbs import said_verbs
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import OK
from test_plan_review_cases import BILLING, _by_path
from test_rest_loose_ids import compiled_spec

KEYS = [
    "GET /invoices", "GET /invoices/{invoice_id}", "POST /invoices/{invoice_id}/finalize",
    "POST /groups.disable", "POST /chat.deleteScheduledMessage", "GET /groups.list",
    "GET /boxes/{name}/status", "PUT /boxes/{name}/status", "POST /boxes/{name}/bank_accounts",
    "POST /boxes/{name}/box", "API_Client_Close",
]  # fmt: skip


def test_the_verbs_are_what_writes_do_to_an_item_or_after_a_dot() -> None:
    verbs = said_verbs(KEYS, kinds=["invoice", "box", "group"])
    assert {"finalize", "disable", "delete"} <= verbs
    # a path a GET reads names a thing; a noun phrase, a kind, a read and a procedure name say nothing
    assert not {"status", "bank", "box", "list", "close"} & verbs


def test_a_catalog_verb_opens_an_action_only_as_an_imperative() -> None:
    verbs = lambda: said_verbs(KEYS, kinds=["invoice"])  # noqa: E731
    assert action_verb("Finalize the invoice inv_1", verbs) == "finalize"
    assert action_verb("Finalize the invoice inv_1") == ""  # the language alone does not know it
    assert action_verb("finalize of the month", verbs) == ""  # no imperative before "of"
    assert action_verb("Evict pod web-3", lambda: frozenset({"eviction"})) == "evict"  # the action's noun
    assert action_verb("E pod web-3", lambda: frozenset({"ion"})) == ""  # no verb left before the ending
    parts = split_actions("Show the invoice inv_1 and finalize it", [], verbs)
    assert [(p.verb, p.writes) for p in parts] == [("show", False), ("finalize", True)]


@pytest.fixture(scope="module")
def billing(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "catalog_verbs_billing", BILLING)


def test_a_request_opening_with_a_catalog_verb_ends_at_its_write(billing: Snapshot) -> None:
    result = Planner(billing).plan("Finalize the latest invoice")
    assert result.chains and result.chains[0].steps[-1].api == "POST /invoices/{invoice_id}/finalize"
    read = Planner(billing).plan("Show the latest invoice")  # the same words without the verb: a read
    assert read.chains and read.chains[0].steps[-1].api.startswith("GET ")


def test_a_participle_or_adjective_of_a_catalog_verb_opens_no_write(billing: Snapshot) -> None:
    verbs = lambda: said_verbs([*KEYS, "POST /channels/{id}/archive"], kinds=["invoice"])  # noqa: E731
    # the words share the verbs' stems (final: finalize, archived: archive), yet they ask
    assert action_verb("Final invoice of the customer", verbs) == ""
    assert action_verb("Archived channels in the workspace", verbs) == ""
    assert action_verb("Disabled groups in the workspace", verbs) == ""
    read = Planner(billing).plan("Final invoice of customer cus_42")
    assert read.chains and all(s.api.startswith("GET ") for s in read.chains[0].steps)


DISCOUNTS = BILLING + "".join(
    [
        _by_path("/subscriptions/{sub}/discount", "delete", "Delete a subscription discount", "sub", OK),
        _by_path("/customers/{customer}/discount", "get", "Read a customer's discount", "customer", OK),
    ]
)


@pytest.fixture(scope="module")
def discounts(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "catalog_verbs_discounts", DISCOUNTS)


def test_what_a_delete_or_a_read_ends_at_is_a_thing_not_a_verb(discounts: Snapshot) -> None:
    keys = discounts.all_api_keys()
    assert "DELETE /subscriptions/{sub}/discount" in keys
    assert "discount" not in said_verbs(keys, kinds=["invoice"])
    assert "avatar" not in said_verbs(["DELETE /users/{id}/avatar"], kinds=[])  # what a delete deletes
    read = Planner(discounts, allow=None).plan("Discount amount of invoice inv_1")
    assert read.chains and all(s.api.startswith("GET ") for s in read.chains[0].steps)
