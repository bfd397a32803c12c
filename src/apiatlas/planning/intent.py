"""What kind of thing a request asks about (a person for "the founder's birthday"), and an API's kind:
the kinds are the catalog's (``CatalogVocabulary``)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from apiatlas.catalog.model import Api
from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.language.words import OWNER_WORDS, PERSON, PERSON_FIELDS, SEARCHING_WORDS
from apiatlas.planning.entity_hints import WHO_OFFERS
from apiatlas.planning.relevance import is_stop_word
from apiatlas.text import query_terms, stem

_WORD = re.compile(r"[a-zа-яё']+")
_PARAM = re.compile(r"\{[^}]*\}")


def asked_kind(text: str, stated: list[str], vocabulary: CatalogVocabulary, head_last: bool = True) -> str:
    """The kind of the first thing the request names outside its stated values, when it asks something
    about that thing (its birthday, its look, its homepage) rather than who or what it is; else ''.
    ``head_last``: two kind words side by side are an English noun compound, the last one its head ("the
    payment intent"); a request whose kind words were read across from another script says them in that
    language's order («журнал заказов»: the log of the orders, the head first), so the caller passes False.

    "When is the birthday of the founder of X?" → person (when the catalog's words say a founder is
    one); "Who is the founder of X?" → '' (the name is the answer, found where the people of X are
    listed). Asking whose a thing is ("кому принадлежит …", "whose deal …") asks about a person, its
    owner; "the address of the deal's owner" asks about an address. ``compounds``: whether two kind words
    in a row are a noun compound, its head the last (English words); not so for kinds read across from
    another language («логи ящиков», read "log crate": the logs of crates, the genitive after its head).
    """
    words = _WORD.findall(_without(text, stated).lower())
    owner = next((i for i, w in enumerate(words) if w in OWNER_WORDS), -1)
    if owner >= 0 and all(is_stop_word(w) for w in words[:owner]):
        return PERSON  # whose the thing is ("кому принадлежит …"), not a thing of its owner's
    if not words or words[0] == "who":
        return ""
    return _first_kind(_WORD.findall(_without(text, stated, "'").lower()), vocabulary.naming, head_last)


def kinds_read_across(text: str, across: Mapping[str, str], kinds: Collection[str]) -> str:
    """``text`` with each word in another script than the catalog's that reads as the stem of one of its
    ``kinds`` (``across``: the word's stem -> a catalog stem) written as that kind («покажи логи крейта,
    созданного task X» -> «покажи логи crate, созданного task X»): the thing asked about read in the
    catalog's words, as the English request names it."""
    if not across:
        return text
    read_as = kinds_read_as(kinds, across)

    def kind_of(match: re.Match[str]) -> str:
        said = match.group(0)
        return read_as.get(stem(said.lower()), "") or said

    return _FOREIGN.sub(kind_of, text)


def kinds_read_as(kinds: Collection[str], across: Mapping[str, str]) -> dict[str, str]:
    """Foreign words (by their stem, ``across``) -> the kind of ``kinds`` whose stem the search reads them
    as, where one kind alone has that stem."""
    if not across:
        return {}
    single = kinds_by_stem(kinds)
    return {said: single[c] for said, c in across.items() if c in single}


def kinds_by_stem(kinds: Collection[str]) -> dict[str, str]:
    """Each stem of ``kinds`` -> the kind that has it, where one kind alone has it."""
    by_stem: dict[str, list[str]] = {}
    for kind in kinds:
        by_stem.setdefault(stem(kind), []).append(kind)
    return {s: k[0] for s, k in by_stem.items() if len(k) == 1}


_FOREIGN = re.compile(r"[^\W\d_a-zA-Z]+")  # a word of letters outside the Latin alphabet


def _without(text: str, stated: list[str], mark: str = " ") -> str:
    """The request without the values it states (each replaced by a space, or by ``mark``: a word that
    keeps the words around a value apart)."""
    for piece in stated:
        if piece:
            text = text.replace(piece, f" {mark} ")
    return text


_WHERE = frozenset(("in", "into", "from", "on", "of", "within", "в", "во", "из", "на"))  # where, not what
_ARTICLES = frozenset(("the", "a", "an", "this", "that", "its", "their"))


def named_kinds(text: str, stated: list[str], vocabulary: CatalogVocabulary) -> set[str]:
    """The kinds the request names as what it acts on, outside its stated values, in one word or in two
    or three ("a usage quota": ``usagequota``); not a kind said as where ("in folder db")."""
    words, naming = _WORD.findall(_without(text, stated).lower()), vocabulary.naming
    out: set[str] = set()
    i = 0
    while i < len(words):
        before = [w for w in words[max(0, i - 2) : i] if w not in _ARTICLES][-1:]
        said = _kind_at(words, i, naming)
        if said and not (before and before[0] in _WHERE):
            out.add(naming["".join(words[i : i + said])])
        i += max(said, 1)  # past a kind said in two or three words: its parts name nothing more
    return out


_TO = frozenset(("to", "into"))  # where a thing goes: "add X to the team core"


def destination_kinds(text: str, stated: list[str], vocabulary: CatalogVocabulary) -> set[str]:
    """The kinds a request names as where a thing goes, right after "to" or "into" (an article between):
    "Add x@example.com to the team core" → team."""
    words, naming = _WORD.findall(_without(text, stated).lower()), vocabulary.naming
    out: set[str] = set()
    for i in range(1, len(words)):
        before = [w for w in words[max(0, i - 2) : i] if w not in _ARTICLES][-1:]
        if before and before[0] in _TO and (said := _kind_at(words, i, naming)):
            out.add(naming["".join(words[i : i + said])])
    return out


def holds(api: Api, container: str, vocabulary: CatalogVocabulary) -> bool:
    """Whether an API's key names the kind ``container`` and then another kind, the one it returns
    (``POST /teams/{id}/users``, ``teams.users.set``: the users of a team). A dotted segment with more path
    after it is a group's name (``/apis/store.example.io/v1/boxes``), not kinds."""
    segments = api.key.split("/")
    path = "/".join(s for i, s in enumerate(segments) if "." not in s or i == len(segments) - 1)
    words, kinds = _key_words(path), vocabulary.kind_set
    named = [k for w in words for k in dict.fromkeys((w, singular(w))) if k in kinds]
    return container in named and any(k != container for k in named[named.index(container) + 1 :])


def _kind_at(words: list[str], i: int, naming: dict[str, str]) -> int:
    """How many words (3, 2, 1) from ``i`` name a kind, longest first; 0 when none does."""
    return next((n for n in (3, 2, 1) if i + n <= len(words) and "".join(words[i : i + n]) in naming), 0)


def _first_kind(words: list[str], naming: dict[str, str], head_last: bool = True) -> str:
    """The kind the first word naming one names; a kind's name written as two or three words ("replica
    sets", "persistent volume claim") is one word of the catalog, read longest first; a kind right before
    another (a noun compound, "the payment intent") is the head's, the last."""
    for i in range(len(words)):
        if said := _kind_at(words, i, naming):
            if head_last and _kind_at(words, i + said, naming) == 1:  # "the payment intent": the head is last
                return naming[words[i + said]]
            return naming["".join(words[i : i + said])]
    return ""


def asks_who(text: str) -> bool:
    """Whether the request asks who (the answer is people: members, staff), not which of the people it
    offers ("Who is older, X or Y?")."""
    return bool(re.match(r"\s*(who|кто)\b", text, re.IGNORECASE)) and not WHO_OFFERS.match(text)


_HOW_MANY = re.compile(r"\b(?:how\s+many|сколько)\s+([a-zа-яё]+)", re.IGNORECASE)


def counted(text: str, stated: list[str]) -> frozenset[str]:
    """Stems of what the request counts ("How many chapters has X?": chapter): an API taking one of
    those as an input (``chapter_number``) is about one of them, not about how many there are."""
    match = _HOW_MANY.search(_without(text, stated))
    return frozenset(query_terms(match.group(1))) if match else frozenset()


def takes_one_of(api: Api, stems: frozenset[str]) -> bool:
    """Whether a required input of ``api`` names one of the counted things (``chapter_number``)."""
    return bool(stems) and any(
        p.required and stems & set(query_terms(p.name.replace("_", " "))) for p in api.params
    )


def own_kind(api: Api, vocabulary: CatalogVocabulary) -> str:
    """The kind of thing an API returns: the last kind of the catalog its key names
    (``GET /author/{id}/images``: author, ``GET /author/{id}/book_reviews``: book); else person when its
    first output table has person columns (surname, birth date); '' otherwise (or when it searches or
    ranks: ``SEARCHING_WORDS``)."""
    words = _key_words(api.key)
    if any(w in SEARCHING_WORDS for w in words):
        return ""
    kinds = vocabulary.kind_set
    named = next((k for w in reversed(words) for k in (w, singular(w)) if k in kinds), "")  # ``/nodes``: node
    return named or (PERSON if _describes_person(api) else "")


def kinds_a_key_may_name(key: str, vocabulary: CatalogVocabulary) -> set[str]:
    """The kinds an API's ``own_kind`` can be, read from its key alone: the kinds its words name, else
    person (``own_kind`` reads that one from the output), so an index by kind needs no API loaded."""
    kinds = vocabulary.kind_set
    return {k for w in _key_words(key) for k in (w, singular(w)) if k in kinds} or {PERSON}


def _key_words(key: str) -> list[str]:
    return re.findall(r"[a-z]+", _PARAM.sub(" ", key.lower()).replace("_", " "))


def _describes_person(api: Api) -> bool:
    """Whether the API's first output table describes a person (two or more person columns)."""
    if not api.output_tables:
        return False
    names = {re.sub(r"[^a-z]", "", c.name.lower()) for c in api.output_tables[0].columns}
    return len(names & PERSON_FIELDS) >= 2


def sub_resource(api: Api) -> set[str]:
    """Stems of the part an API's path adds after an identifier (``/book/{book_id}/similar``: similar;
    ``/chapter/{n}/notes``: notes): what it returns about the thing, which a request should name."""
    _, _, path = api.key.partition(" ")
    parts = [p for p in path.strip("/").split("/") if p]
    if len(parts) < 2 or parts[-1].startswith("{") or not parts[-2].startswith("{"):
        return set()
    return set(query_terms(parts[-1].replace("_", " ")))
