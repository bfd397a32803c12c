"""A kind said in two words before an id (issue 18, chains): the catalog's kinds are one word (``box``) while
its paths name ``payment_boxes`` and ``storage_boxes``; "Cancel payment box pb_…" is the payment box's
cancel, whatever the search's ranking of the two alike titles."""

from __future__ import annotations

import pytest

from apiatlas.planning.compound_kinds import compound_fit, qualifier
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

BOXES = "openapi: 3.0.0\ninfo: {title: Boxes, version: '1'}\npaths:\n" + "".join(
    [
        _by_path("/storage_boxes/{box}/cancel", "post", "Cancel a storage box before its payment", "box", OK),
        _by_path("/payment_boxes/{box}/cancel", "post",
                 "A PaymentBox object can be canceled in some of its states (before its capture or its"
                 " confirmation)", "box", OK),
        _by_path("/storage_boxes/{box}", "get", "Retrieve a storage box", "box", OK),
        _by_path("/payment_boxes/{box}", "get", "Retrieve a payment box", "box", OK),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def boxes(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "compound_kinds_boxes", BOXES)


def test_the_word_before_the_kind_noun_says_which_compound(boxes: Snapshot) -> None:
    result = Planner(boxes, allow=None).plan("Cancel payment box pb_3Mtw8x2Lq")
    assert result.chains and result.chains[0].api_keys == ["POST /payment_boxes/{box}/cancel"]
    result = Planner(boxes, allow=None).plan("Cancel storage box sb_3Mtw8x2Lq")
    assert result.chains and result.chains[0].api_keys == ["POST /storage_boxes/{box}/cancel"]


def test_the_qualifier_and_its_fit() -> None:
    text = "Cancel payment box pb_1x"
    assert qualifier(text, text.index("pb_"), "box") == "payment"
    assert qualifier("Cancel the box pb_1x", 15, "box") == ""  # "the": a plain word
    assert compound_fit("payment", "box", "POST /payment_boxes/{box}/cancel") == 1.0
    assert compound_fit("payment", "box", "POST /storage_boxes/{box}/cancel") == -1.0
    assert compound_fit("payment", "box", "POST /boxes/{box}") == 0.0
    assert compound_fit("connected", "account", "GET /accounts/{account}/bank_accounts") == 0.0  # plain kind


ACCOUNT = "{type: object, properties: {id: {type: string}, country: {type: string}}}"
_BANK = "{type: object, properties: {id: {type: string}, account: {type: string}, bank_name: {type: string}}}"
ACCOUNTS = "openapi: 3.0.0\ninfo: {title: Accounts, version: '1'}\npaths:\n" + "".join(
    [
        _by_path("/accounts/{account}", "get", "Retrieve an account", "account", ACCOUNT),
        _by_path("/accounts/{account}/bank_accounts", "get", "List the bank accounts of an account",
                 "account", _of("data", "{type: array, items: " + _BANK + "}")),
        _by_path("/linked/accounts/{account}", "get", "Retrieve a bank account linked to a connected account",
                 "account", ACCOUNT),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def accounts(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "compound_kinds_accounts", ACCOUNTS)


def test_an_adjective_before_the_kind_noun_keeps_the_path_naming_the_kind(accounts: Snapshot) -> None:
    result = Planner(accounts, allow=None).plan("Show the bank accounts of connected account acc_3Mtw8x2Lq")
    assert result.chains and result.chains[0].api_keys == ["GET /accounts/{account}/bank_accounts"]
