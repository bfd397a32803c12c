"""Russian personal names in their dictionary form: a surname, a given name or a patronymic said in another
case («для Анны Лебедевой») back to the nominative, and the
endings by which a capitalised word reads as a surname or a patronymic."""

from __future__ import annotations

import re

PATRONYMIC_END = re.compile(r"(вич|вна|вича|вны|вной|вичу|вне|ична|ичны|ичной|ьич|ьича)$")
SURNAME_END = re.compile(
    r"(ов|ев|ёв|ин|ын|ова|ева|ёва|ина|ына|ой|ого|ому|ский|ская|ского|ской|цкий|цкая|ко|ук|юк|ян|их|ых)$"
)


def nominative_surname(word: str, feminine: bool | None) -> tuple[str, tuple[str, ...]]:
    """A surname in the nominative (Петрова → Петров, Лазаревой → Лазарева), with the other reading."""
    lower = word.lower()
    for ending, male, female in (("ого", "ий", "ая"), ("ой", "", "а"), ("ому", "", "")):
        if lower.endswith(ending) and len(word) > 4:
            if ending == "ой" and not lower.endswith(("ской", "цкой")):
                return word[:-2] + "а", ()
            return word[: -len(ending)] + (female if feminine else male), ()
    if re.search(r"(ова|ева|ёва|ина|ына)$", lower):
        if feminine:
            return word, (word[:-1],)
        return word[:-1], (word,)  # "клиента Михалова": genitive of Михалов, or Михалова herself
    return word, ()


def nominative_given_name(word: str, feminine: bool) -> str:
    """Татьяны → Татьяна, Юлии → Юлия, Антона → Антон, Сергея → Сергей (genitive to nominative)."""
    lower = word.lower()
    if feminine:
        if lower.endswith("ии"):
            return word[:-1] + "я"
        if lower.endswith(("ы", "и")):
            return word[:-1] + ("я" if lower.endswith("ьи") else "а")
        return word
    if lower.endswith("ея"):
        return word[:-1] + "й"
    if lower.endswith("ья"):
        return word[:-1] + "ь"
    if lower.endswith("а") and len(word) > 3:
        return word[:-1]
    return word


def nominative_patronymic(word: str) -> str:
    """Олеговича → Олегович, Олеговны → Олеговна (a patronymic's case ending to the nominative)."""
    lower = word.lower()
    for ending, nominative in (
        ("вича", "вич"),
        ("вичу", "вич"),
        ("вны", "вна"),
        ("вной", "вна"),
        ("вне", "вна"),
    ):
        if lower.endswith(ending):
            return word[: -len(ending)] + nominative
    if lower.endswith(("ьича", "ича")):
        return word[:-1]
    return word
