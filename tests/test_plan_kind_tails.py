"""A kind named by the last words of its compound name (issue 18, chains): a catalog whose kinds are closed
compounds (``storageunitlease``, written ``StorageUnitLease`` in its titles) is asked about "the unit lease
l-1"; a tail several kinds end in, or one naming a kind already, names none. A real compile
of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.kind_tails import kind_words, tail_names
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

THING = "{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}"
SPEC = "openapi: 3.0.0\ninfo: {title: Depot, version: '1'}\npaths:\n" + "".join(
    [
        _by_path("/storageunits/{name}", "get", "read the specified StorageUnit", "name", THING),
        _by_path("/storageunitleases/{name}", "get", "read the specified StorageUnitLease", "name", THING),
        _by_path("/cargoleases/{name}", "get", "read the specified CargoLease", "name", THING),
        _by_path("/docks/{name}", "get", "read the specified Dock", "name", THING),
    ]
)  # fmt: skip


def test_a_tail_of_two_words_names_the_one_kind_ending_in_it() -> None:
    titles = ["read the specified StorageUnitLease", "list CargoLease", "read StorageUnit", "patch Dock"]
    words = kind_words(["storageunitlease", "cargolease", "storageunit", "dock"], titles)
    assert words == {"storageunitlease": ["storage", "unit", "lease"], "cargolease": ["cargo", "lease"],
                     "storageunit": ["storage", "unit"]}  # fmt: skip
    tails = tail_names(words, taken={"storageunit", "cargolease", "dock"})
    # "lease" alone ends two kinds and is one word: no tail; "unitlease" (and its plural) the one kind
    assert tails == {"unitlease": "storageunitlease", "unitleases": "storageunitlease"}
    assert tail_names(words, taken={"unitlease"}) == {}  # a word naming something already stays it


@pytest.fixture(scope="module")
def depot(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "kind_tails_depot", SPEC)


def test_a_request_names_a_compound_kind_by_its_last_words(depot: Snapshot) -> None:
    result = Planner(depot).plan("Show the unit lease l-1")
    assert [(x.value, x.hint) for x in result.values] == [("l-1", "storageunitlease")]
    assert result.chains and result.chains[0].api_keys == ["GET /storageunitleases/{name}"]
    full = Planner(depot).plan("Show the storage unit lease l-1")  # its three words: the same kind
    assert [(x.value, x.hint) for x in full.values] == [("l-1", "storageunitlease")]
