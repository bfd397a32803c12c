"""Lookups that turn what the user says into ids: a name said beside a kind of thing of the catalog
("the channel releases", "node n-1"), the input it fills or the list it is picked from, and the optional
inputs of a kind a chain may feed (Slack's ``conversations.history`` declares its ``channel`` optional).

A name fills an input that takes the thing's name (``{name}`` after ``nodes/``, ``{namespace}``); an input
taking the thing's id that a list of named items feeds (``channels[].id`` beside ``channels[].name`` of
``GET /conversations.list``) takes it from that list instead: the list step picks the item whose name
field equals the name (``pick``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from itertools import pairwise

from apiatlas.catalog.model import CREDENTIAL_PARAMS, Api, SideEffect
from apiatlas.language.actions import ACTION_WORDS
from apiatlas.language.casing import as_read_in_place
from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.language.words import NEWEST_WORDS, ORDINALS, PLAIN_WORDS, PREPOSITIONS, SENTENCE_WORDS
from apiatlas.planning import values as v
from apiatlas.planning.bare_names import ENDS as _ENDS
from apiatlas.planning.bare_names import WORD as _WORD
from apiatlas.planning.bare_names import bare_names as bare_names
from apiatlas.snapshot.graph_links import Link
from apiatlas.text import stem

_NAMING = frozenset({"called", "named"})  # "a channel called q3-planning": the name follows
ITEM_KEYS = frozenset({"name", "key", "slug", "code"})  # how a path names one item (``/nodes/{name}``)
NAME_FIELDS = ("name", "metadata.name")  # the field a listed item names itself with
_TAKES_NAMES = re.compile(r"\bnames?\b", re.IGNORECASE)


def said_names(
    text: str,
    vocabulary: CatalogVocabulary,
    found: list[v.ExtractedValue],
    known: frozenset[str],
    across: Mapping[str, str] | None = None,
) -> list[v.ExtractedValue]:
    """Names said right after a kind of thing of the catalog ("the channel releases", "node n-1",
    "namespace shop", "a channel called q3-planning"): the word after the kind noun when it is no word
    the planner knows (``known``: plain, asking and action words, the catalog's vocabulary), no kind
    and part of no value found already. The kind noun may be said in a script the catalog does not
    write (``across``: its stem -> the catalog stem the search reads it as, «канала general» ->
    channel), the name then one with a Latin letter."""
    kinds = vocabulary.kind_set & frozenset(vocabulary.named_inputs)
    read_as = _kinds_read_across(kinds, across or {})
    taken = {w.lower() for f in found for w in _WORD.findall(f.text)}
    words = _WORD.findall(text)
    out: list[v.ExtractedValue] = []
    for at, word in enumerate(words[:-1]):
        kind = word.lower()
        if said := _kind_in_words(words, at, kinds, vocabulary.naming):  # "the user group oncall"
            kind, at = said
        elif said := _kind_in_two_across(words, at, kinds, vocabulary.naming, across or {}):
            kind, at = said  # «группу пользователей design-team»: the user group design-team
        elif read_as and stem(kind) in read_as:
            kind = read_as[stem(kind)]
        elif kind not in kinds:
            continue
        after = at + 2 if words[at + 1].lower() in _NAMING and at + 2 < len(words) else at + 1
        name = words[after].rstrip(".'’")
        low = name.lower()
        if (
            low in known
            or low in vocabulary.kind_set
            or low in taken
            or low in PLAIN_WORDS
            or low in SENTENCE_WORDS
            or low in ACTION_WORDS
            or low in PREPOSITIONS
            or singular(low) in vocabulary.kind_set
            or not re.search(r"[a-z]", low)
            or (low.isalpha() and low.endswith(("ed", "ing")) and not _ends_after(text, name))
        ):  # "the configmap mounted by …": a participle; "the channel marketing" ending the phrase: a name
            continue
        if any(f.kind == v.NAME and f.value == name for f in out):
            continue
        out.append(v.ExtractedValue(v.NAME, name, name, hint=kind))
    return out + _names_before(text, kinds, taken | {f.text.lower() for f in out}, known)


def _kind_in_words(
    words: list[str], at: int, kinds: frozenset[str], naming: Mapping[str, str]
) -> tuple[str, int] | None:
    """The kind of ``kinds`` named by three or two words from ``at`` run together (``usergroup`` in "user
    group", a compound kind by its last words in "unit lease": ``CatalogVocabulary.naming``), a name
    after them, with the place of its last word; None when no such run names one."""
    for n in (3, 2):
        if at + n < len(words):
            said = naming.get("".join(w.lower() for w in words[at : at + n]), "")
            if said in kinds:
                return said, at + n - 1
    return None


def _kind_in_two_across(
    words: list[str], at: int, kinds: frozenset[str], naming: Mapping[str, str], across: Mapping[str, str]
) -> tuple[str, int] | None:
    """The kind of ``kinds`` two words from ``at`` in another script name, a name after them, with the
    place of the second: a head noun and the noun after it that says what it is of (Russian puts the
    modifier after its head in the genitive, «группа пользователей», where English puts it before: "user
    group"), each read as a catalog stem (``across``), run together in the English order."""
    if at + 2 >= len(words) or words[at].isascii() or words[at + 1].isascii():
        return None
    head, of = (across.get(stem(w.lower()), "") for w in words[at : at + 2])
    said = naming.get(of + head, "") if head and of else ""
    return (said, at + 1) if said in kinds else None


def _ends_after(text: str, word: str) -> bool:
    """Whether ``word`` ends a phrase of ``text`` where it stands (the end, a comma, "and", "then" next)."""
    at = re.search(rf"\b{re.escape(word)}\b", text)
    return at is not None and bool(_ENDS.match(text, at.end()))


_BEFORE_THE = frozenset({"in", "into", "to", "from", "of", "on"})
# words describing a thing before its kind, not naming it ("the same channel", "the default one")
_DESCRIBING = frozenset({"same", "other", "new", "old", "whole", "entire", "own", "next", "previous", "main"})


def _names_before(
    text: str, kinds: frozenset[str], taken: set[str], known: frozenset[str]
) -> list[v.ExtractedValue]:
    """A name said before its kind where the request says where ("… out of the sales channel", "to the
    q3-planning channel"): after a preposition and "the", the kind noun ending the phrase (the end, a
    comma, "and", "then" after it); no word the planner knows, no ordinal, newest or describing word,
    nothing ending like an adjective's degree ("-est", "-er")."""
    out, read = [], as_read_in_place(text)  # "OUT OF THE SALES CHANNEL" as "out of the sales channel"
    for match in _BEFORE_KIND.finditer(read):
        place, name, kind = (g.lower() for g in match.groups())
        if place not in _BEFORE_THE or kind not in kinds or not _ENDS.match(read, match.end()):
            continue
        if (
            name in known | taken | kinds | PLAIN_WORDS | SENTENCE_WORDS | ACTION_WORDS | NEWEST_WORDS
            or name in ORDINALS
            or name in _DESCRIBING
            or singular(name) in kinds
            or (name.isalpha() and name.endswith(("est", "er", "ed", "ing")))
        ):
            continue
        raw = text[match.start(2) : match.end(2)]  # as written
        out.append(v.ExtractedValue(v.NAME, raw, raw, hint=kind))
    return out


_BEFORE_KIND = re.compile(r"\b(\w+)\s+the\s+([\w][\w.-]*)\s+(\w+)\b", re.UNICODE)


def _kinds_read_across(kinds: frozenset[str], across: Mapping[str, str]) -> dict[str, str]:
    """Foreign words (by their stem, ``across``) -> the kind whose stem the search reads them as, where
    one kind alone has that stem."""
    if not across:
        return {}
    by_stem: dict[str, list[str]] = {}
    for kind in kinds:
        by_stem.setdefault(stem(kind), []).append(kind)
    return {said: by_stem[c][0] for said, c in across.items() if len(by_stem.get(c, ())) == 1}


def newest_things(text: str) -> frozenset[str]:
    """The kinds of thing a request asks the newest one of ("the latest message", "its most recent
    message", "the last message"): the word after a word of recency (``NEWEST_WORDS``), singular. A list
    of those things feeds the input taking one (``listed_item``), its first item picked."""
    words = [w.lower() for w in _WORD.findall(text)]
    return frozenset(
        singular_kind(after)
        for word, after in pairwise(words)
        if word in NEWEST_WORDS and after not in PLAIN_WORDS and after.isalpha()
    )


def listed_item(field: str) -> str:
    """The kind of thing a field reads from a list of (``messages[].ts`` → message); '' when the field
    lies in no list or the list is named for nothing (``[].id``)."""
    head, sep, _ = field.partition("[]")
    name = head.rsplit(".", 1)[-1]
    return singular_kind(name) if sep and name.isalpha() else ""


def kinds_listed_by(api: Api) -> set[str]:
    """The kinds of thing an API's output lists (``messages[].ts`` → message: ``listed_item``)."""
    return {listed_item(c.name) for t in api.output_tables for c in t.columns} - {""}


@lru_cache(maxsize=8192)
def singular_kind(word: str) -> str:
    """Lower case, as the catalog's kinds are singular (``language.catalog.singular``, what derived them)."""
    return singular(word.lower())


def item_kind(api: Api, name: str) -> str:
    """The kind of thing a path input names one item of: ``{name}`` right after ``nodes`` → node."""
    return _path_item_kind(str(api.extra.get("path", api.key.partition(" ")[2])), name)


@lru_cache(maxsize=65536)
def _path_item_kind(path: str, name: str) -> str:
    segments = [s for s in path.strip("/").split("/") if s]
    marker = "{" + name + "}"
    if marker not in segments or name.lower() not in ITEM_KEYS:
        return ""
    at = segments.index(marker)
    return singular_kind(segments[at - 1]) if at > 0 and not segments[at - 1].startswith("{") else ""


def names_another_kind(producer: Api, field: str, consumer: Api, name: str, kinds: frozenset[str]) -> bool:
    """Whether ``field`` of ``producer``, feeding the path input ``name`` that names one item of a kind
    (``{name}`` after ``boxes``), is that same bare key of another kind of thing, or of none: the nearest
    part of the field naming a kind (``spec.shelf.name``: shelf), else the producer's own path (an API
    group's ``name`` at ``/apis/store.example.io/``: no kind), is not the box. A field the consumer's
    kind names (``boxName``) is no bare key and is read as the edge says."""
    wanted, parts = item_kind(consumer, name), _field_parts(field, name)
    if not wanted or not parts:
        return False
    holder = next((k for p in reversed(parts[:-1]) if (k := singular_kind(p)) in kinds), "")
    return (holder or path_kind(producer, kinds)) != wanted


def rereads_listed(producer: Api, field: str, consumer: Api, name: str, kinds: frozenset[str]) -> bool:
    """Whether a read of one item by its key (``GET /boxes/{name}``, the item itself, not a part of it)
    takes the key from a list of those same things (``items[].name`` of ``GET /boxes``): read for each of
    them, it answers what the list already returned. (A step picking one item by a stated name is no
    such read.)"""
    wanted, parts = item_kind(consumer, name), _field_parts(field, name)
    path = str(consumer.extra.get("path", consumer.key.partition(" ")[2]))
    if not wanted or not parts or "[]" not in field or consumer.side_effect is not SideEffect.READ:
        return False
    if not path.rstrip("/").endswith("{" + name + "}"):
        return False  # a part of the item (``/boxes/{name}/log``): what the list does not return
    holders = {k for p in parts[:-1] if (k := singular_kind(p)) in kinds}
    return holders <= {wanted} and path_kind(producer, kinds) == wanted


def _field_parts(field: str, name: str) -> list[str]:
    """The parts of an output field (``items[].meta.name`` → items, meta, name) when its last part is
    the bare key ``name``; else none."""
    parts = [p for p in re.split(r"\[\]|\.", field) if p]
    return parts if parts and parts[-1].lower() == name.lower() else []


def path_kind(api: Api, kinds: frozenset[str]) -> str:
    """The last literal segment of an API's path that is a kind of the catalog (``/shelves/{id}/boxes``:
    box); '' when none is (a dotted group name, ``store.example.io``, is not one)."""
    path = str(api.extra.get("path", api.key.partition(" ")[2]))
    segments = [s for s in path.strip("/").split("/") if s and not s.startswith("{")]
    return next((k for s in reversed(segments) if (k := singular_kind(s)) in kinds), "")


def input_kind(api: Api, name: str) -> str:
    """The kind of thing an input takes: its own name (``channel``, ``users``, ``namespace``), else the
    item its path names (``{name}`` after ``nodes``)."""
    return item_kind(api, name) or singular_kind(name)


def names_fill(
    api: Api, name: str, hint: str, looked_up: Callable[[], bool], kinds: frozenset[str] = frozenset()
) -> bool:
    """Whether a name said of a thing of kind ``hint`` fills the input ``name`` of ``api``: the input names
    one item of that kind by its path (``/nodes/{name}``) or names a new one a create of the kind makes
    (``creates``), or is named as the kind and takes its name: its
    description says it takes names ("an encoded ID, or a name"), or no list of named items gives it an
    id (``looked_up``); or it is the ``name`` of the create of that kind ("a server web-2": ``POST
    /servers``' name). A name said without its kind (``bare_names``) fills only an input named for one of
    the catalog's ``kinds`` whose description says it takes names ("in general" to a ``channel`` that
    takes "an encoded ID, or a name"): the input says what the name is."""
    if not hint:
        return singular_kind(name) in kinds and _described_as_taking_names(api, name)
    if item_kind(api, name) == hint or (name.lower() == "name" and creates(api) == hint):
        return True  # "/nodes/{name}"; the name of a new one ("Create a board b-1": ``boards.create``)
    if singular_kind(name) != hint:
        return False
    return _described_as_taking_names(api, name) or not looked_up()


def _described_as_taking_names(api: Api, name: str) -> bool:
    """Whether the description of the input ``name`` of ``api`` says it takes names."""
    param = next((p for p in api.params if p.name == name), None)
    return bool(param and _TAKES_NAMES.search(param.description))


def creates(api: Api) -> str:
    """The kind a create makes one of (singular): ``POST /boards``, ``POST /boards.create``; '' for
    another API."""
    method, _, path = api.key.partition(" ")
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if method != "POST" or not last or last.startswith("{"):
        return ""
    head, dot, verb = last.partition(".")
    if dot and verb != "create":
        return ""
    return singular_kind(head) if head.isalpha() else ""


def pick_field(producer: Api, table: str | None, field: str) -> str | None:
    """The field a listed item names itself with, beside the id a step reads from the list
    (``channels[].id`` → ``channels[].name``): the list can be searched by a name."""
    head, sep, leaf = field.rpartition("[].")
    if not sep or leaf not in ("id", "uid") or "[]" in head:
        return None
    columns = {c.name for t in producer.output_tables if t.name == table for c in t.columns}
    return next((f"{head}[].{n}" for n in NAME_FIELDS if f"{head}[].{n}" in columns), None)


def looked_up(edges: list[Link], name: str, producers: dict[str, Api]) -> bool:
    """Whether a list of named items feeds the input ``name`` its id (``edges``: the edges into the API;
    ``producers``: their APIs by key)."""
    for edge in edges:
        if edge.consumer_table is not None or edge.consumer_field.lower() != name.lower():
            continue
        producer = producers.get(edge.producer)
        if producer is not None and pick_field(producer, edge.producer_table, edge.producer_field):
            return True
    return False


def wanted(api: Api, name: str, required: bool, vocabulary: CatalogVocabulary) -> bool:
    """An optional input a spec declaring its inputs loosely leaves unmarked: one named as a kind of
    thing of the catalog (``channel``, ``user``, ``users``), or, of an operation that declares no input
    required, one another operation requires (``ts`` of ``conversations.replies``; ``chat.update``
    requires it). A chain may feed it; a plan without it asks nothing."""
    if required or item_kind(api, name) or name.lower() in CREDENTIAL_PARAMS or _item_change(api, name):
        return False
    if "_" not in name and singular_kind(name) in vocabulary.kind_set:
        return True
    declared = any(p.required and p.name.lower() not in CREDENTIAL_PARAMS for p in api.params)
    return name.lower() in vocabulary.required_set and not declared


def _item_change(api: Api, name: str) -> bool:
    """Whether ``name`` is a body field of a write to one item its path names by a required input
    (``POST /boxes/{box}``) or of the create of a kind (``POST /boxes``): such a write carries what the
    request says of the item, no other thing."""
    if api.side_effect is SideEffect.READ:
        return False
    if not any(p.name == name and p.location == "body" for p in api.params):
        return False
    last = str(api.extra.get("path", api.key.partition(" ")[2])).rstrip("/").rsplit("/", 1)[-1]
    if api.key.startswith("POST ") and last.isidentifier() and singular_kind(last) != last.lower():
        return True  # the create of a collection
    return last.startswith("{") and any(p.required and p.location == "path" for p in api.params)


def picked_name(
    found: list[v.ExtractedValue],
    producer: Api,
    consumer: Api,
    field: tuple[str | None, str],
    name: str,
    used: set[int],
    named: frozenset[str] = frozenset(),
) -> tuple[int, str] | None:
    """The name (its index in ``found``) a list step picks its item by, and the item's name field, when
    the step feeds ``consumer``'s input ``name`` the id read from ``field`` (table, field) of a list of
    named items and the request names a thing of that input's kind ("the channel releases": the item of
    ``channels[]`` whose ``name`` is releases gives ``channels[].id``), or, when it names none and the
    input is named for a kind (``named``: ``CatalogVocabulary.named_inputs``), a name said without its
    kind ("in announcements")."""
    by = pick_field(producer, field[0], field[1])
    if by is None:
        return None
    kind = input_kind(consumer, name)
    said = [i for i, f in enumerate(found) if f.kind == v.NAME and f.hint == kind]
    if not said and kind in named:  # a name said without its kind, of an input named for a kind
        said = [i for i, f in enumerate(found) if f.kind == v.NAME and not f.hint]
    index = next((i for i in said if i not in used), said[0] if said else None)  # one item, read twice
    return (index, by) if index is not None else None


def created_names(found: list[v.ExtractedValue], api: Api, used: set[int]) -> set[int]:
    """The names (their indexes in ``found``) a write creating a thing takes in its body: a ``POST`` to the
    collection of the name's kind ("create the namespace staging": ``POST /api/v1/namespaces``)."""
    if api.key.partition(" ")[0] != "POST" or not any(p.location == "body" for p in api.params):
        return set()
    path = str(api.extra.get("path", api.key.partition(" ")[2]))
    tail = path.rstrip("/").rsplit("/", 1)[-1]
    if tail.startswith("{"):
        return set()
    return {
        i for i, f in enumerate(found) if f.kind == v.NAME and i not in used and singular_kind(tail) == f.hint
    }
