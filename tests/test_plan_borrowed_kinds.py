"""A kind of thing named by a Russian word borrowed from the catalog's English one (issue 18, chains): the
embedding model may put a transliteration («бандл»: 0.884 to "bundle") below the cosine a translation
reaches (0.91), so the kinds read across scripts (``WordBridge.nearest_among``) fall back on the word's
Latin readings (``borrowed_stem``): an id said right after it is one of that kind and fills that kind's
input, not an ``{id}`` that takes any."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

BUNDLE = "{type: object, properties: {id: {type: string}, status: {type: string}, entry: {type: string}}}"
ENTRY = "{type: object, properties: {id: {type: string}, amount: {type: integer}}}"
_BUNDLES = _of("data", "{type: array, items: " + BUNDLE + "}")
DESK = "openapi: 3.0.0\ninfo: {title: Desk, version: '1'}\npaths:\n" + "".join(
    [
        _by_path("/entries/{id}", "get", "Retrieve a ledger entry", "id", ENTRY),
        _by_path("/entries/{id}/bundles", "get", "List the bundles made of an entry", "id", _BUNDLES),
        _by_path("/bundles/{bundle}", "get", "Retrieve a bundle", "bundle", BUNDLE),
        _by_path("/bundles/{bundle}/close", "post", "Close a bundle", "bundle", BUNDLE),
        _by_path("/vouchers/{voucher}", "get", "Retrieve a voucher", "voucher", ENTRY),
        _by_path("/vouchers/{voucher}/close", "post", "Close a voucher", "voucher", OK),
    ]
)


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "borrowed_kinds_desk", DESK)


@pytest.mark.parametrize(
    "request_text", ["Закрой бандл bd_1NvXa2eZvKYlo2Cq7", "закрой бандл bd_7Hq2LmZa91KpX и покажи его"]
)
def test_an_id_after_a_borrowed_kind_word_is_of_that_kind(desk: Snapshot, request_text: str) -> None:
    result = Planner(desk, allow=None).plan(request_text)
    said = next(w for w in request_text.split() if w.startswith("bd_"))
    value = next(x for x in result.values if x.text == said)
    assert value.hint == "bundle"
    assert result.chains and result.chains[0].api_keys[0] == "POST /bundles/{bundle}/close"
