"""The verbs a catalog's writes say (issue 18, chains): a request opening with one orders that write,
though the language's lists do not know the word ("Finalize the latest invoice", "Evict pod web-3")."""

from __future__ import annotations

import pytest

from apiatlas.planning.actions import action_verb, said_verbs, split_actions
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from apiatlas.text import stem
from test_plan_review_cases import BILLING
from test_rest_loose_ids import compiled_spec

KEYS = [
    "GET /invoices", "GET /invoices/{invoice_id}", "POST /invoices/{invoice_id}/finalize",
    "POST /groups.disable", "POST /chat.deleteScheduledMessage", "GET /groups.list",
    "GET /boxes/{name}/status", "PUT /boxes/{name}/status", "POST /boxes/{name}/bank_accounts",
    "POST /boxes/{name}/box", "API_Client_Close",
]  # fmt: skip


def test_the_verbs_are_what_writes_do_to_an_item_or_after_a_dot() -> None:
    verbs = said_verbs(KEYS, kinds=["invoice", "box", "group"])
    assert {stem("finalize"), stem("disable"), stem("delete")} <= verbs
    # a path a GET reads names a thing; a noun phrase, a kind, a read and a procedure name say nothing
    assert not {stem("status"), stem("bank"), stem("box"), stem("list"), stem("close")} & verbs


def test_a_catalog_verb_opens_an_action_only_as_an_imperative() -> None:
    verbs = lambda: said_verbs(KEYS, kinds=["invoice"])  # noqa: E731
    assert action_verb("Finalize the invoice inv_1", verbs) == "finalize"
    assert action_verb("Finalize the invoice inv_1") == ""  # the language alone does not know it
    assert action_verb("finalize of the month", verbs) == ""  # no imperative before "of"
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
