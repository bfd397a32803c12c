"""A kind of thing said in two words before an id (issue 18, chains): "payment box pb_1" where the catalog's
paths name ``payment_boxes`` and ``storage_boxes``, its kinds the one word ``box``. The word before the kind
noun (the id's ``qualifier``) says which: an API whose path names the two words as one snake_case segment
fits the id, one naming the kind noun after another word does not."""

from __future__ import annotations

import re
from functools import lru_cache

from apiatlas.language.catalog import singular
from apiatlas.language.words import PLAIN_WORDS

_LATIN = re.compile(r"[A-Za-z]+")


def qualifier(text: str, start: int, hint: str) -> str:
    """The word right before the kind noun ``hint`` that the id at ``start`` follows ("payment" in "cancel
    payment box pb_1"), lower case; '' when the noun is not the word right before the id or none precedes
    it, or it is a plain word ("the", "of")."""
    words = [w.lower() for w in _LATIN.findall(text[:start])]
    if len(words) < 2 or words[-1] != hint or words[-2] in PLAIN_WORDS:
        return ""
    return str(words[-2])


def compound_fit(qualifier: str, hint: str, key: str) -> float:
    """+1 when the API's path names ``qualifier`` and ``hint`` as one segment (``/payment_boxes/{id}``),
    -1 when it names the kind noun only after another word (``/storage_boxes/{id}``), else 0: a path naming
    the kind noun alone takes such an id too, whatever its other parts (``/accounts/{account}/bank_accounts``
    for "the bank accounts of connected account acct_1")."""
    if not qualifier or not hint:
        return 0.0
    segments = _segments(key.partition(" ")[2])
    if f"{qualifier}_{hint}" in segments:
        return 1.0
    return -1.0 if hint not in segments and any(s.endswith(f"_{hint}") for s in segments) else 0.0


@lru_cache(maxsize=65536)
def _segments(path: str) -> frozenset[str]:
    """The literal segments of a path, lower case and singular (``/payment_boxes/{id}``: payment_box)."""
    return frozenset(singular(s.lower()) for s in path.strip("/").split("/") if s and not s.startswith("{"))
