"""What kind of thing a request asks about (a person for "the lead actor's birthday"), and an API's kind."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api
from apiatlas.text import query_terms

# nouns naming a kind of thing, and the roles people have (an actor, a director is a person)
KIND_NOUNS = {
    "movie": "movie", "movies": "movie", "film": "movie", "films": "movie", "tv": "tv", "show": "tv",
    "shows": "tv", "series": "tv", "television": "tv", "collection": "collection", "company": "company",
    "companies": "company", "network": "network", "person": "person", "people": "person",
    "actor": "person", "actors": "person", "actress": "person", "director": "person", "directors": "person",
    "creator": "person", "star": "person",
}  # fmt: skip
KINDS = frozenset(KIND_NOUNS.values())
_WORD = re.compile(r"[a-z']+")
_PARAM = re.compile(r"\{[^}]*\}")


def asked_kind(text: str, stated: list[str]) -> str:
    """The kind of the first thing the request names outside its stated values, when it asks something
    about that thing (its birthday, its look, its homepage) rather than who or what it is; else ''.

    "When is the birthday of the lead actor of X?" → person; "Who is the lead actor of X?" → '' (the
    name is the answer, found where the cast is listed).
    """
    for piece in stated:
        if piece:
            text = text.replace(piece, " ")
    words = _WORD.findall(text.lower())
    if not words or words[0] == "who":
        return ""
    return next((KIND_NOUNS[w] for w in words if w in KIND_NOUNS), "")


def own_kind(api: Api) -> str:
    """The kind of thing an API returns: the last kind word of its key (``GET /person/{id}/images``:
    person, ``GET /person/{id}/movie_credits``: movie); '' when its key names none (or it searches,
    discovers or ranks several)."""
    words = re.findall(r"[a-z]+", _PARAM.sub(" ", api.key.lower()).replace("_", " "))
    if any(w in ("search", "discover", "trending") for w in words):
        return ""
    return next((w for w in reversed(words) if w in KINDS), "")


def sub_resource(api: Api) -> set[str]:
    """Stems of the part an API's path adds after an identifier (``/movie/{movie_id}/similar``: similar;
    ``/season/{n}/credits``: credits): what it returns about the thing, which a request should name."""
    _, _, path = api.key.partition(" ")
    parts = [p for p in path.strip("/").split("/") if p]
    if len(parts) < 2 or parts[-1].startswith("{") or not parts[-2].startswith("{"):
        return set()
    return set(query_terms(parts[-1].replace("_", " ")))
