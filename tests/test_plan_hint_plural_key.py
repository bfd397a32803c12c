"""A value said to be a kind of thing fits an API whose key names that kind in the plural
(``GET /v1/charges/{charge}/dispute`` for "the dispute of charge ch_…"): no misfit, as a key naming only
other kinds is; the full fit stays for a key naming the kind as the catalog's kinds are written."""

from __future__ import annotations

from apiatlas.catalog.model import Api
from apiatlas.planning.draft import hint_fit

KINDS = frozenset({"charge", "dispute", "customer"})


def _api(key: str) -> Api:
    return Api(key=key, object_key="")


def test_a_kind_named_in_the_plural_is_no_misfit() -> None:
    assert hint_fit("charge", _api("GET /v1/charges/{charge}/dispute"), KINDS) == 0.0
    assert hint_fit("customer", _api("GET /v1/charges/{charge}/dispute"), KINDS) == -0.6  # another kind
    assert hint_fit("dispute", _api("GET /v1/charges/{charge}/dispute"), KINDS) == 1.0
    assert hint_fit("charge", _api("GET /v1/disputes"), KINDS) == 0.0
