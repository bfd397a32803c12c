"""Latin words inflected in Russian.

A Russian request borrows a Latin word as written and glues its case ending on after an apostrophe or a
hyphen («покажи PR'ы», «логи build'а», «commit-ов»): the ending says the word's number and case, the Latin
word is the catalog's. ``unglued`` writes such a word back as the English word, in the plural when the
ending is a plural one, so that the request's kinds are read as the catalog writes them.
"""

from __future__ import annotations

import re

from apiatlas.language.catalog import english_plural

# Russian case endings of the plural (nominative, genitive, dative, instrumental, prepositional)
PLURAL_ENDINGS = frozenset(("ы", "и", "ов", "ев", "ей", "ам", "ям", "ами", "ями", "ах", "ях"))
# and of the singular (genitive, dative, accusative, instrumental, prepositional)
SINGULAR_ENDINGS = frozenset(("а", "я", "у", "ю", "ом", "ем", "ой", "е"))
_GLUED = re.compile(r"\b([A-Za-z][A-Za-z0-9]*)['’`-]([а-яё]{1,3})\b")
_QUOTED = re.compile(r'("[^"]*"|«[^»]*»|“[^”]*”)')  # a text the user writes as it is to be sent


def _english(match: re.Match[str]) -> str:
    word, ending = match.group(1), match.group(2).lower()
    if ending in PLURAL_ENDINGS:
        return english_plural(word)
    return word if ending in SINGULAR_ENDINGS else match.group(0)


def unglued(text: str) -> str:
    """``text`` with each Latin word carrying a Russian case ending («widget'ы», «box'а») written as
    the English word (its plural for a plural ending); any other text as it was, and so is a quoted text
    (a message to post says «PR'ы готовы» as the user wrote it)."""
    if not ("'" in text or "’" in text or "`" in text or "-" in text):
        return text
    parts = _QUOTED.split(text)  # the quoted texts at the odd places
    return "".join(p if i % 2 else _GLUED.sub(_english, p) for i, p in enumerate(parts))
