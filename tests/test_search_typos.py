"""The typo fallback corrects typos to catalog words, and leaves real words of the language alone."""

from __future__ import annotations

from apiatlas.search.e5_file import whole_words
from apiatlas.search.typos import TypoFallback

NAMES = [
    "GET /v1/tax/rates Tax rates",
    "GET /v1/customers List customers",
    "API_Acc_GetRest Остаток на счёте",
]


def test_the_model_vocabulary_knows_words_and_not_typos() -> None:
    lexicon = whole_words()
    assert {"taxi", "weather", "customer", "airport"} <= lexicon
    assert not {"customerr", "taxx", "subscriptoin"} & lexicon
    assert "клиента" not in lexicon  # Russian forms are left to the correction (see whole_words)


def test_a_typo_is_corrected_and_a_real_word_is_not() -> None:
    plain, guarded = TypoFallback(NAMES), TypoFallback(NAMES, whole_words)
    assert plain.corrections("book a taxi")["taxi"] == ["tax"]  # what the lexicon is for
    assert guarded.corrections("book a taxi") == {}
    assert guarded.corrections("customerr taxx")["customerr"] == ["customers"]
    assert guarded.corrections("customerr taxx")["taxx"] == ["tax"]
    assert guarded.corrections("остатак")["остатак"] == ["остаток"]


INITIALS = [
    "GET /v1/repairtickets/{name} read the specified WidgetRepairTicket",
    "GET /v1/gadgets/{name} read the specified GadgetPart",  # two words: too short to abbreviate
    "GET /v1/flows/{name} read the specified FlowControlSchema",
    "GET /v1/forms/{name} read the specified FormControlSetting",  # same initials as FlowControlSchema
    "GET /v1/wrt read the wrt record",  # its own word "wrt"
]


def test_a_name_of_three_words_or_more_is_spelled_out_from_its_initials() -> None:
    from apiatlas.search.typos import initials_of

    found = initials_of(INITIALS)
    assert found["wrt"] == ["widget repair ticket"]
    assert "gp" not in found
    assert found["fcs"] == ["flow control schema", "form control setting"]
    assert TypoFallback(INITIALS[:4]).spelled_out("show wrt w-1 and fcs f-2 and gp g-3") == {
        "wrt": ["widget", "repair", "ticket"]  # fcs: two names; gp: none
    }
    assert TypoFallback(INITIALS).spelled_out("show wrt w-1") == {}  # the catalog says "wrt" itself


def test_initials_in_the_plural_spell_the_name_in_the_plural() -> None:
    typos = TypoFallback(INITIALS[:4])
    assert typos.spelled_out("which WRTs are open") == {"wrts": ["widget", "repair", "tickets"]}
    assert typos.spelled_out("all fcss") == {}  # "fcs" abbreviates two names
    assert TypoFallback(INITIALS).spelled_out("list wrts") == {}  # the plural of the catalog's own "wrt"
    # the camelCase split of "WRTs" ("wr", "ts") is no word of the request: it is the word spelled out
    assert typos.spelled_pieces("which WRTs are open") == {"wr", "ts"}
    assert typos.spelled_pieces("which wrts are open") == set()
    # a piece the request also says as a word of its own stays a word: "WR" here is no piece of "WRTs"
    assert typos.spelled_pieces("which WRTs name WR 1") == {"ts"}


UNDONE = ["POST /v1/stars.add Adds a star", "POST /v1/stars.remove Removes a star", "GET /v1/locks Locks"]


def test_a_word_that_undoes_a_catalog_word_reads_as_that_word() -> None:
    """A word such as "unstar" is no typo: it undoes "star", and the APIs of stars hold the undoing."""
    typos = TypoFallback(UNDONE, whole_words)
    assert typos.corrections("unstar the message") == {"unstar": ["star"]}
    assert typos.undone("unlocks") == "locks"  # as the catalog writes it
    assert typos.undone("unlock") == "locks"
    assert typos.undone("until") is None  # "til" is no catalog word
    assert typos.corrections("under the stars") == {}  # a word of the language, left alone


def test_a_word_the_catalog_writes_keeps_only_its_own_forms() -> None:
    """The word "replicas" is written in the catalog's descriptions: no typo of the name
    ``replicaset``; a Russian form whose stem Snowball leaves a letter apart («остатка», «остаток») is
    still read."""
    from apiatlas.search.typos import known_forms
    from apiatlas.text import stem

    offered = {"replicas": ["replica", "replicaset"], "остатка": ["остаток"], "replcas": ["replicaset"]}
    indexed = {stem("replicas"), stem("остатка")}
    assert known_forms(offered, indexed) == {
        "replicas": ["replica"],  # the same word
        "остатка": ["остаток"],
        "replcas": ["replicaset"],  # a word the catalog does not write is corrected as before
    }
    assert known_forms({"supports": ["sports"]}, {stem("supports")}) == {}


def test_a_word_of_the_language_with_an_ending_undoes_nothing() -> None:
    """A word such as "units" is the plural of "unit", not "un" + the catalog's "its"; "unions" is no
    "un" + "ions"."""
    catalog = [*UNDONE, "GET /v1/items Lists an item and its parts", "GET /v1/ions Lists ions"]
    typos = TypoFallback(catalog, whole_words)
    assert typos.undone("units") is None
    assert typos.undone("unions") is None
    assert typos.corrections("units of the item") == {}
    assert typos.undone("unlocks") == "locks"  # no word of the language less its ending ("unlock" is none)
