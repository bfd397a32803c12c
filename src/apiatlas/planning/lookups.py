"""Lookups that turn what the user says into ids: a name said beside a kind of thing of the catalog
("the channel releases", "node n-1"), the input it fills or the list it is picked from, and the optional
inputs of a kind a chain may feed (Slack's ``conversations.history`` declares its ``channel`` optional).

A name fills an input that takes the thing's name (``{name}`` after ``nodes/``, ``{namespace}``); an input
taking the thing's id that a list of named items feeds (``channels[].id`` beside ``channels[].name`` of
``GET /conversations.list``) takes it from that list instead: the list step picks the item whose name
field equals the name (``pick``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from apiatlas.catalog.model import CREDENTIAL_PARAMS, Api, SideEffect
from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.planning import values as v
from apiatlas.snapshot.graph_links import Link

ITEM_KEYS = frozenset({"name", "key", "slug", "code"})  # how a path names one item (``/nodes/{name}``)
NAME_FIELDS = ("name", "metadata.name")  # the field a listed item names itself with
_TAKES_NAMES = re.compile(r"\bnames?\b", re.IGNORECASE)
# "name" said as what the input does not take: "The board's ID, not its name", "no names"
_NOT_NAMES = re.compile(r"\b(?:not|never|no|instead of|rather than)\b[^.;]{0,20}?\bnames?\b", re.IGNORECASE)


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
    """Whether the description of the input ``name`` of ``api`` says it takes names ("An ID, or a name"; not
    "The board's ID, not its name")."""
    param = next((p for p in api.params if p.name == name), None)
    said = param.description if param else ""
    return bool(_TAKES_NAMES.search(_NOT_NAMES.sub(" ", said)))


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
    if required or item_kind(api, name) or name.lower() in CREDENTIAL_PARAMS or item_change(api, name):
        return False
    if "_" not in name and singular_kind(name) in vocabulary.kind_set:
        return True
    declared = any(p.required and p.name.lower() not in CREDENTIAL_PARAMS for p in api.params)
    return name.lower() in vocabulary.required_set and not declared


def item_change(api: Api, name: str) -> bool:
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
