"""Index text: split identifiers and prose into words and stem them (Russian + English Snowball)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import Stemmer

# A word: a run of letters/digits; '_' is a separator, so API_Prs_FindListByFIO splits on it.
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# camelCase / PascalCase / acronym boundaries: FindListByFIO -> Find List By FIO; DSec -> D Sec.
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_A-Za-z]+", re.UNICODE)
_CYRILLIC = re.compile(r"[а-яё]")

_RUSSIAN = Stemmer.Stemmer("russian")
_ENGLISH = Stemmer.Stemmer("english")


def split_identifier(word: str) -> list[str]:
    """Split one identifier-like word on camelCase, acronym and digit boundaries (no lower-casing)."""
    parts = _CAMEL.findall(word)
    return parts or [word]


def words(text: str) -> list[str]:
    """Lower-cased words of ``text``: identifiers are split on ``_`` and camelCase, ``ё`` becomes ``е``."""
    out: list[str] = []
    for raw in _WORD.findall(text):
        pieces = split_identifier(raw)
        if len(pieces) > 1:
            out.append(_normalise(raw))  # keep the whole identifier too: exact names still match
        # a lone letter left by the split (the D of DSec) only adds noise to the index
        out.extend(_normalise(p) for p in pieces if len(pieces) == 1 or len(p) > 1 or p.isdigit())
    return out


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball stem of one lower-case word: Russian for Cyrillic words, English otherwise (a British
    spelling read as the American one: "theatres" and "theaters" have one stem)."""
    if _CYRILLIC.search(word):
        return str(_RUSSIAN.stemWord(word))
    if word.isascii() and word.isalpha():
        return str(_ENGLISH.stemWord(american(word)))
    return word


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


def stems(text: str) -> list[str]:
    """The stemmed words of ``text`` in order (duplicates kept; bm25 uses the frequencies)."""
    return [stem(w) for w in words(text)]


def index_text(parts: Iterable[str]) -> str:
    """One space-joined string of stems, the form stored in the FTS5 index."""
    return " ".join(s for part in parts for s in stems(part))


# Function words (prepositions, conjunctions, particles, pronouns) that tell no API from another:
# a lexical hit needs a query word outside them (unless the query has no other), and a hit's "why"
# leaves them out.
_FUNCTION_WORDS = (
    "в во на по с со у о об от до за из к ко для при про над под без через между и или а но не ни ли "
    "же бы то что как это эти этот эта его её ее их мне нам вам все всё мой моя мои "
    "the a an of in on at to for by and or is are was were be been with from as it its that this "
    "these those what which who how me my i we our you your he him his she her they them their "
    "do does did can could would should will has have had am there please"
)


@lru_cache(maxsize=1)
def function_stems() -> frozenset[str]:
    """The stems of the function words (``content_terms`` leaves them out)."""
    return frozenset(stem(_normalise(w)) for w in _FUNCTION_WORDS.split())


def content_terms(terms: list[str]) -> list[str]:
    """``terms`` without function-word stems ("в", "the"); all of them when nothing else is left."""
    stop = function_stems()
    return [t for t in terms if t not in stop] or terms


def query_terms(query: str) -> list[str]:
    """Distinct stems of a search query, in first-seen order."""
    seen: dict[str, None] = {}
    for s in stems(query):
        seen.setdefault(s, None)
    return list(seen)


def _normalise(word: str) -> str:
    return word.lower().replace("ё", "е")
