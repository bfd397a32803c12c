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
OWN_ID_FIELDS = frozenset(("id", "uid"))  # the field an item gives its own id in
URL_FIELDS = ("url", "uri")  # the field of the web address a listed item points at
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


def _api_path(api: Api) -> str:
    """An HTTP API's path, as its source gives it, else as its key writes it after the method; '' for a key
    with no method (a procedure's name)."""
    return str(api.extra.get("path", api.key.partition(" ")[2]))


def item_kind(api: Api, name: str) -> str:
    """The kind of thing a path input names one item of: ``{name}`` right after ``nodes`` → node."""
    return _path_item_kind(_api_path(api), name)


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
    path = _api_path(consumer)
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
    path = _api_path(api)
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


def posted_to(key: str, path: str | None = None) -> str:
    """The last segment of the path a ``POST`` writes to, where a create names the kind it makes
    (``POST /boards``: boards, ``POST /boards.create``: boards.create); ``path`` read in place of the
    key's when given (``Api.extra["path"]``); '' for another method and for a path ending in a parameter
    (``POST /boards/{id}``)."""
    method, _, own = key.partition(" ")
    last = (own if path is None else path).rstrip("/").rsplit("/", 1)[-1]
    return last if method == "POST" and not last.startswith("{") else ""


def creates(api: Api) -> str:
    """The kind a create makes one of (singular): ``POST /boards``, ``POST /boards.create``; '' for
    another API."""
    last = posted_to(api.key)
    if not last:
        return ""
    head, dot, verb = last.partition(".")
    if dot and verb != "create":
        return ""
    return singular_kind(head) if head.isalpha() else ""


def pick_field(
    producer: Api, table: str | None, field: str, names: tuple[str, ...] = NAME_FIELDS
) -> str | None:
    """The field a listed item names itself with (``names``), beside the id a step reads from the list
    (``channels[].id`` → ``channels[].name``): the list can be searched by a name (or, ``URL_FIELDS``, by
    the web address an item points at)."""
    head, sep, leaf = field.rpartition("[].")
    if not sep or leaf not in OWN_ID_FIELDS or "[]" in head:
        return None
    columns = {c.name for t in producer.output_tables if t.name == table for c in t.columns}
    return next((f"{head}[].{n}" for n in names if f"{head}[].{n}" in columns), None)


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
    if _flag(api, name):
        return False
    if "_" not in name and singular_kind(name) in vocabulary.kind_set:
        return True
    declared = any(p.required and p.name.lower() not in CREDENTIAL_PARAMS for p in api.params)
    return name.lower() in vocabulary.required_set and not declared


def _flag(api: Api, name: str) -> bool:
    """Whether ``name`` is a boolean input of ``api``: an option the request sets by saying its word
    ("a private channel": ``is_private``), no thing's id or field for an earlier step to feed."""
    return any(
        p.name == name and (p.domain_type == "boolean" or p.json_schema.get("type") == "boolean")
        for p in api.params
    )


def item_change(api: Api, name: str) -> bool:
    """Whether ``name`` is a body field of a write to one item its path names by a required input
    (``POST /boxes/{box}``) or of the create of a kind (``POST /boxes``): such a write carries what the
    request says of the item, no other thing."""
    if api.side_effect is SideEffect.READ:
        return False
    if not any(p.name == name and p.location == "body" for p in api.params):
        return False
    last = _api_path(api).rstrip("/").rsplit("/", 1)[-1]
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
        return picked_url(found, producer, field, used)
    kind = input_kind(consumer, name)
    said = [i for i, f in enumerate(found) if f.kind == v.NAME and f.hint == kind]
    if not said and kind in named:  # a name said without its kind, of an input named for a kind
        said = [i for i, f in enumerate(found) if f.kind == v.NAME and not f.hint]
    index = next((i for i in said if i not in used), said[0] if said else None)  # one item, read twice
    return (index, by) if index is not None else picked_url(found, producer, field, used)


def picked_url(
    found: list[v.ExtractedValue], producer: Api, field: tuple[str | None, str], used: set[int]
) -> tuple[int, str] | None:
    """The web address (its index in ``found``) a list step picks its item by, and the item's address
    field ("the webhook that points at https://…": the item of ``data[]`` whose ``url`` it is)."""
    by = pick_field(producer, field[0], field[1], URL_FIELDS)
    index = next((i for i, f in enumerate(found) if f.kind == v.URL and i not in used), None)
    return (index, by) if index is not None and by is not None else None


def created_names(found: list[v.ExtractedValue], api: Api, used: set[int]) -> set[int]:
    """The names (their indexes in ``found``) a write creating a thing takes in its body: a ``POST`` to the
    collection of the name's kind ("create the namespace staging": ``POST /api/v1/namespaces``)."""
    tail = posted_to(api.key, _api_path(api))
    if not tail or not any(p.location == "body" for p in api.params):
        return set()
    return {
        i
        for i, f in enumerate(found)
        if f.kind == v.NAME and i not in used and (singular_kind(tail) == f.hint or _names_new(api, f.hint))
    }


def _names_new(api: Api, kind: str) -> bool:
    """Whether a body input ``name`` of ``api`` is said to be the name of the ``kind`` it creates ("Name
    of the public or private channel to create"): a procedure's create, its path no collection."""
    return bool(kind) and any(
        p.name == "name" and p.location == "body" and _says_created(p.description, kind) for p in api.params
    )


def _says_created(description: str, kind: str) -> bool:
    """Whether ``description`` names the ``kind`` as the thing created ("… channel to create")."""
    said = rf"\b{re.escape(kind)}s?\b[^.;]*\bto (?:be )?created?\b"
    return re.search(said, description, re.IGNORECASE) is not None
