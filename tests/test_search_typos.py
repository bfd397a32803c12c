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
