"""The general Russian and English words the assistant reads: references back, lists, counts, choices.
No catalog's vocabulary lives here: what a catalog calls its things comes from its snapshot."""

from __future__ import annotations

import re

# words that point back at an entity of an earlier turn ("его счета", "her accounts", "these accounts")
REFERENCES = frozenset(
    [
        "его",
        "него",
        "её",
        "ее",
        "неё",
        "нее",
        "их",
        "них",
        "ему",
        "ей",
        "им",
        "этого",
        "этой",
        "этих",
        "этому",
        "этим",
        "этот",
        "эта",
        "эти",
        "тот",
        "та",
        "те",
        "того",
        "той",
        "тех",
        "такой",
        "он",
        "она",
        "они",
        "his",
        "her",
        "hers",
        "him",
        "them",
        "their",
        "theirs",
        "they",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "same",
    ]
)
# words that ask for every match, so several rows are the answer, not an ambiguity
EVERY = frozenset(
    [
        "все",
        "всех",
        "всем",
        "всеми",
        "всё",
        "любые",
        "любых",
        "список",
        "перечень",
        "сколько",
        "all",
        "every",
        "each",
        "list",
        "many",
        "how",
    ]
)
# words a follow-up says around what changed ("а за февраль?", "and for March?")
FILLERS = frozenset(
    [
        "а",
        "и",
        "за",
        "на",
        "по",
        "с",
        "со",
        "в",
        "во",
        "что",
        "как",
        "ну",
        "тогда",
        "теперь",
        "еще",
        "ещё",
        "также",
        "тоже",
        "период",
        "and",
        "for",
        "what",
        "about",
        "how",
        "then",
        "now",
        "also",
        "same",
        "period",
    ]
)
COUNTING = frozenset(
    [
        "сколько",
        "количество",
        "число",
        "count",
        "many",
    ]
)
FINDING = frozenset(
    [
        "найди",
        "найти",
        "найдите",
        "ищи",
        "поиск",
        "покажи",
        "find",
        "search",
        "look",
        "show",
    ]
)
# one of several offered: "второй", "the second", "№2"
CHOICE_ORDINALS = {
    "первый": 1, "первого": 1, "первая": 1, "первую": 1, "first": 1, "1": 1,
    "второй": 2, "второго": 2, "вторая": 2, "вторую": 2, "second": 2, "2": 2,
    "третий": 3, "третьего": 3, "третья": 3, "третью": 3, "third": 3, "3": 3,
    "четвёртый": 4, "четвертый": 4, "четвертого": 4, "fourth": 4, "4": 4,
    "пятый": 5, "пятого": 5, "fifth": 5, "5": 5,
}  # fmt: skip
WORD = re.compile(r"[0-9A-Za-zА-Яа-яЁё]+")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def words_of(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def language_of(text: str) -> str:
    """'ru' when the question is written in Cyrillic letters mostly, else 'en'."""
    letters = [c for c in text if c.isalpha()]
    cyr = sum(1 for c in letters if CYRILLIC.match(c))
    return "ru" if letters and cyr * 2 >= len(letters) else "en"
