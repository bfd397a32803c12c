"""What kind of thing a request asks about (a person for "the lead actor's birthday"), and an API's kind."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api
from apiatlas.planning.relevance import is_stop_word
from apiatlas.planning.values import WHO_OFFERS
from apiatlas.text import query_terms

# nouns naming a kind of thing, and the roles people have (an actor, a director is a person)
KIND_NOUNS = {
    "movie": "movie", "movies": "movie", "film": "movie", "films": "movie", "tv": "tv", "show": "tv",
    "shows": "tv", "series": "tv", "television": "tv", "collection": "collection", "company": "company",
    "companies": "company", "network": "network", "person": "person", "people": "person",
    "actor": "person", "actors": "person", "actress": "person", "director": "person", "directors": "person",
    "creator": "person", "star": "person",
}  # fmt: skip
# words asking whose a thing is: the answer is a person (its owner), whatever the thing is
_OWNER_WORDS = (
    "whose owner owners owns owned belongs belong чей чья чьё чье чьи кому принадлежит принадлежат "
    "владелец владельца владельцу владельцем владельце владельцы владельцев"
)
OWNER_WORDS = frozenset(_OWNER_WORDS.split())
KINDS = frozenset(KIND_NOUNS.values())
_WORD = re.compile(r"[a-zа-яё']+")
# output columns that describe a person (a surname and a birth date, not just a name)
_PERSON_FIELDS = frozenset(
    {"surname", "lastname", "familyname", "firstname", "givenname", "patronymic", "middlename",
     "birthdate", "birthday", "dateofbirth", "placeofbirth"}
)  # fmt: skip
_PARAM = re.compile(r"\{[^}]*\}")


def asked_kind(text: str, stated: list[str]) -> str:
    """The kind of the first thing the request names outside its stated values, when it asks something
    about that thing (its birthday, its look, its homepage) rather than who or what it is; else ''.

    "When is the birthday of the lead actor of X?" → person; "Who is the lead actor of X?" → '' (the
    name is the answer, found where the cast is listed). Asking whose a thing is ("кому принадлежит
    счёт …", "whose deal …") asks about a person, its owner; "the address of the account's owner" asks
    about an address.
    """
    for piece in stated:
        if piece:
            text = text.replace(piece, " ")
    words = _WORD.findall(text.lower())
    owner = next((i for i, w in enumerate(words) if w in OWNER_WORDS), -1)
    if owner >= 0 and all(is_stop_word(w) for w in words[:owner]):
        return "person"  # whose the thing is ("кому принадлежит счёт …"), not a thing of its owner's
    if not words or words[0] == "who":
        return ""
    return next((KIND_NOUNS[w] for w in words if w in KIND_NOUNS), "")


def asks_who(text: str) -> bool:
    """Whether the request asks who (the answer is people: a cast, a crew, staff), not which of the
    people it offers ("Who is older, X or Y?")."""
    return bool(re.match(r"\s*(who|кто)\b", text, re.IGNORECASE)) and not WHO_OFFERS.match(text)


_HOW_MANY = re.compile(r"\b(?:how\s+many|сколько)\s+([a-zа-яё]+)", re.IGNORECASE)


def counted(text: str, stated: list[str]) -> frozenset[str]:
    """Stems of what the request counts ("How many seasons of X are there?": season): an API taking one
    of those as an input (``season_number``) is about one of them, not about how many there are."""
    for piece in stated:
        if piece:
            text = text.replace(piece, " ")
    match = _HOW_MANY.search(text)
    return frozenset(query_terms(match.group(1))) if match else frozenset()


def takes_one_of(api: Api, stems: frozenset[str]) -> bool:
    """Whether a required input of ``api`` names one of the counted things (``season_number``)."""
    return bool(stems) and any(
        p.required and stems & set(query_terms(p.name.replace("_", " "))) for p in api.params
    )


def own_kind(api: Api) -> str:
    """The kind of thing an API returns: the last kind word of its key (``GET /person/{id}/images``:
    person, ``GET /person/{id}/movie_credits``: movie); else person when its first output table has
    person columns (surname, birth date); '' otherwise (or when it searches, discovers or ranks)."""
    words = re.findall(r"[a-z]+", _PARAM.sub(" ", api.key.lower()).replace("_", " "))
    if any(w in ("search", "discover", "trending") for w in words):
        return ""
    named = next((w for w in reversed(words) if w in KINDS), "")
    return named or ("person" if _describes_person(api) else "")


def _describes_person(api: Api) -> bool:
    """Whether the API's first output table describes a person (two or more person columns)."""
    if not api.output_tables:
        return False
    names = {re.sub(r"[^a-z]", "", c.name.lower()) for c in api.output_tables[0].columns}
    return len(names & _PERSON_FIELDS) >= 2


def sub_resource(api: Api) -> set[str]:
    """Stems of the part an API's path adds after an identifier (``/movie/{movie_id}/similar``: similar;
    ``/season/{n}/credits``: credits): what it returns about the thing, which a request should name."""
    _, _, path = api.key.partition(" ")
    parts = [p for p in path.strip("/").split("/") if p]
    if len(parts) < 2 or parts[-1].startswith("{") or not parts[-2].startswith("{"):
        return set()
    return set(query_terms(parts[-1].replace("_", " ")))
