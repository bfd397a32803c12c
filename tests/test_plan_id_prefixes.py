"""An opaque id's own letter prefix names the one kind of the catalog that opens with it, whatever noun is
said before it; the words of an id said before another are no noun of it."""

from __future__ import annotations

from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v

KINDS = CatalogVocabulary(kinds=["customer", "invoice", "intent", "charge"])


def _hints(request: str, vocabulary: CatalogVocabulary = KINDS) -> dict[str, str]:
    return {f.value: f.hint for f in v.extract_values(request, vocabulary) if f.kind == v.IDENTIFIER}


def test_the_prefix_names_its_kind_over_the_noun_before_it() -> None:
    assert _hints("get the upcoming invoice for cus_Q8wErT5yUi0P") == {"cus_Q8wErT5yUi0P": "customer"}
    assert _hints("the charge ch_3MmlLrLkdIwH") == {"ch_3MmlLrLkdIwH": "charge"}


def test_a_prefix_opening_two_kinds_names_none() -> None:
    assert _hints("void the invoice in_1MtHbELkdIwH") == {"in_1MtHbELkdIwH": "invoice"}  # the noun said
    assert _hints("in_1MtHbELkdIwH") == {"in_1MtHbELkdIwH": ""}


def test_an_id_said_before_is_no_noun() -> None:
    found = _hints("привяжи pm_1OaBcDeFgH к клиенту zz_PqRsTuVw12")
    assert found == {"pm_1OaBcDeFgH": "", "zz_PqRsTuVw12": ""}  # not "oabcdefgh"


def test_a_prefix_that_is_a_kind_names_it_though_a_longer_kind_opens_with_it() -> None:
    kinds = CatalogVocabulary(kinds=["card", "cardholder", "customer"])
    assert _hints("show the cardholder of card_1NGTaT2eZvKY", kinds) == {"card_1NGTaT2eZvKY": "card"}
    assert _hints("the card ca_1NGTaT2eZvKY", kinds) == {"ca_1NGTaT2eZvKY": "card"}  # two open with "ca"


def test_a_name_said_right_after_a_kind_is_that_kind_whatever_it_opens_with() -> None:
    kinds = CatalogVocabulary(kinds=["channel", "team", "user", "customer"])
    assert _hints("post hi in channel team_alpha2", kinds) == {"team_alpha2": "channel"}  # a channel's name
    assert _hints("archive the channel id user_research2", kinds) == {"user_research2": "channel"}
    assert _hints("the invoices for cus_Q8wErT5yUi0P", kinds) == {"cus_Q8wErT5yUi0P": "customer"}
