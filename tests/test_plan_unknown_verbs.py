"""A verb nobody wrote down (``planning.unknown_verbs``): a word neither the language nor the catalog knows,
opening a request before a kind of the catalog and a name, orders a change of that thing (issue 18:
"Cordon node worker-5" is a PATCH of the node). On a real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.planning.unknown_verbs import unknown_verb
from test_plan_one_item_writes import SPEC
from test_rest_loose_ids import compiled_spec

_KINDS = frozenset(("widget", "node"))


def _never(word: str) -> bool:
    return False


def test_an_unknown_opening_word_before_a_thing_named_is_a_verb() -> None:
    assert unknown_verb("Cordon node worker-5", _KINDS, _never) == "cordon"
    assert unknown_verb("please quarantine the widget w-1", _KINDS, _never) == "quarantine"


def test_known_words_nouns_and_catalog_words_are_no_unknown_verb() -> None:
    assert unknown_verb("Show node worker-5", _KINDS, _never) == ""  # the language's verb
    assert unknown_verb("Which node runs it", _KINDS, _never) == ""  # a question word
    assert unknown_verb("Nodes widget w-1", _KINDS, _never) == ""  # a kind itself
    assert unknown_verb("Cordon node", _KINDS, _never) == ""  # no thing named after the kind
    assert unknown_verb("Status node worker-5", _KINDS, lambda w: w == "status") == ""  # the catalog's word


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    return Planner(compiled_spec(tmp_path_factory, "unknown_verbs", SPEC))


def test_an_unknown_verb_changes_the_thing_named(planner: Planner) -> None:
    assert planner.plan("Quarantine widget w-1").chains[0].target == "PATCH /widgets/{name}"


def test_a_verb_of_looking_or_a_mistyped_read_is_no_unknown_verb() -> None:
    """Over-reach of the rule (review of w-chains-k8s): with writes allowed, "Examine node n-1", «Глянь pod
    web-1» and "Descirbe pod web-1" were planned as a PATCH of the thing they only ask to see."""
    assert unknown_verb("Examine node worker-5", _KINDS, _never) == ""
    assert unknown_verb("Глянь node worker-5", _KINDS, _never) == ""
    assert unknown_verb("Descirbe node worker-5", _KINDS, _never) == ""  # describe, mistyped
    assert unknown_verb("Shwo the widget w-1", _KINDS, _never) == ""  # show, mistyped
    assert unknown_verb("Drain node worker-5", _KINDS, _never) == "drain"  # no read's slip


def test_a_verb_of_looking_reads_the_thing_named(planner: Planner) -> None:
    assert planner.plan("Inspect widget w-1").chains[0].target.startswith("GET ")


def test_an_opening_word_before_a_question_or_a_part_asked_is_no_verb() -> None:
    """Over-reach (review of w-chains-k8s): "Hey pod web-1, what is its status?" and "Quick node worker-5
    status" were planned as a PATCH of the thing they ask about."""
    assert unknown_verb("Hey node worker-5, what is its status?", _KINDS, _never) == ""
    assert unknown_verb("Quick node worker-5 status", _KINDS, _never) == ""
    assert unknown_verb("Cordon node worker-5 now", _KINDS, _never) == "cordon"
    assert unknown_verb("Cordon node worker-5 in the cluster", _KINDS, _never) == "cordon"


def test_an_unknown_verb_is_no_name_it_opens(planner: Planner) -> None:
    """"Quarantine deployment web …" read "Quarantine deployment" as a capitalised name, and the change
    ended at another kind's write (review of w-chains-k8s: PATCH of the namespace)."""
    found = planner.plan("Quarantine widget web").values
    assert all(not f.text.lower().startswith("quarantine") for f in found)
    assert planner.plan("Quarantine widget web").chains[0].target == "PATCH /widgets/{name}"
