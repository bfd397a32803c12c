"""Stemming of one word: Russian and English Snowball, a British spelling read as the American one."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import Stemmer

_CYRILLIC = re.compile(r"[а-яё]")
_RUSSIAN = Stemmer.Stemmer("russian")
_ENGLISH = Stemmer.Stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball stem of one lower-case word: Russian for Cyrillic words, English otherwise (a British
    spelling read as the American one: "theatres" and "theaters" have one stem)."""
    if _CYRILLIC.search(word):
        return str(_RUSSIAN.stemWord(word))
    if word.isascii() and word.isalpha():
        return str(_ENGLISH.stemWord(american(word)))
    return word


def same_stem(a: str, b: str) -> bool:
    """Equal stems, or long stems differing only at the end (сделк / сделок, бумаг / бумаги): Snowball
    leaves some forms of one word with different endings."""
    if a == b:
        return True
    if min(len(a), len(b)) < 4:
        return False
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return common >= 4 and common >= min(len(a), len(b)) - 1


def stems_by_head(stems: Iterable[str]) -> dict[str, list[str]]:
    """Stems of four letters or more by their first four (``same_stem`` only meets stems sharing them)."""
    heads: dict[str, list[str]] = {}
    for stem_ in stems:
        if len(stem_) >= 4:
            heads.setdefault(stem_[:4], []).append(stem_)
    return heads


# British spellings and their American forms, which API documentation mostly uses. Whole words where a
# rule would catch other words too (-ise: "promise"; -our: "hour"; -lled: "filled").
_BRITISH_WORDS = {
    "licence": "license", "licences": "licenses", "defence": "defense", "offence": "offense",
    "cancelled": "canceled", "cancelling": "canceling", "travelled": "traveled", "travelling": "traveling",
    "traveller": "traveler", "travellers": "travelers", "labelled": "labeled", "labelling": "labeling",
    "modelled": "modeled", "modelling": "modeling", "grey": "gray", "programme": "program",
    "programmes": "programs", "enrolment": "enrollment", "enrolments": "enrollments", "fulfil": "fulfill",
    "jewellery": "jewelry", "aluminium": "aluminum", "ageing": "aging", "judgement": "judgment",
    "organisation": "organization", "organisations": "organizations", "organise": "organize",
    "authorisation": "authorization", "authorise": "authorize", "authorised": "authorized",
    "customise": "customize", "customised": "customized", "optimise": "optimize", "optimised": "optimized",
    "optimisation": "optimization", "normalise": "normalize", "normalised": "normalized",
    "initialise": "initialize", "serialise": "serialize", "recognise": "recognize", "summarise": "summarize",
    "categorise": "categorize", "prioritise": "prioritize", "synchronise": "synchronize",
    "finalise": "finalize", "utilise": "utilize", "visualise": "visualize", "minimise": "minimize",
    "maximise": "maximize", "favourite": "favorite", "favourites": "favorites", "fibre": "fiber",
    "fibres": "fibers", "calibre": "caliber", "sabre": "saber", "sombre": "somber",
}  # fmt: skip
_OUR = (
    "colour", "favour", "flavour", "honour", "humour", "labour", "neighbour", "behaviour", "harbour",
    "rumour", "vapour", "armour", "endeavour", "savour", "odour", "vigour", "parlour", "valour",
)  # fmt: skip
# word endings: theatre(s) -> theater(s), analyse -> analyze, catalogue -> catalog
_BRITISH_ENDINGS = (
    ("tres", "ters"), ("tre", "ter"),
    ("ysing", "yzing"), ("ysed", "yzed"), ("yses", "yzes"), ("yse", "yze"), ("ogues", "ogs"), ("ogue", "og"),
)  # fmt: skip
_NOT_BRITISH = frozenset(
    {"vogue", "rogue", "rogues", "brogue", "analyses", "entre", "contre", "notre", "maitre"}
)


def american(word: str) -> str:
    """The American spelling of a lower-case British one ("colours" -> "colors"); other words as given."""
    if word in _BRITISH_WORDS:
        return _BRITISH_WORDS[word]
    if len(word) < 5 or word in _NOT_BRITISH:
        return word
    for british in _OUR:
        if word.startswith(british):
            return british[:-2] + "r" + word[len(british) :]
    for ending, replacement in _BRITISH_ENDINGS:
        if word.endswith(ending):
            return word[: -len(ending)] + replacement
    return word
