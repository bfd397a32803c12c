"""REST edges for ids a spec declares loosely: a role-qualified or alternatives name (``originSkyId`` ←
``skyId``, ``username_or_url`` ← ``username``), the item key of a resource's own collection
(``items[].metadata.name`` of ``GET /api/v1/namespaces`` → ``{namespace}``) and a list named for a
resource whose items are bare values (``channels[]`` of ``GET /conversations.list`` → ``channel``).
Used by the REST edges pass (``rest_edges.py``)."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

from apiatlas.catalog.model import CREDENTIAL_PARAMS, Api, EdgeLevel, Param
from apiatlas.passes.rest_names import (
    ITEM_KEYS,
    method_of,
    name_singular,
    nesting,
    path_of,
    qualified_leaves,
    words,
)

if TYPE_CHECKING:
    from apiatlas.passes.rest_edges import _Out, _RestGraph

MIN_TAIL = 6  # a shorter last word (name, type, time) says too little to link by
_OWNED_FIELD = re.compile(r"\b([A-Za-z]+)'s `(\w+)`")  # "A message's `ts` value": the field of a thing
_OF_THING = re.compile(r"^\s*([A-Za-z]+) of (?:the|a|an) ([A-Za-z]+)\b")  # "Timestamp of the message …"
_SCALARS = frozenset({"string", "integer", "number"})
ITEM_NAME_KEYS = frozenset({"name", "metadata.name"})  # how an item of a collection names itself


def _collection_of(api: Api) -> str | None:
    """The resource a ``GET`` collection lists: its last path segment, singular, when it ends the path
    (``/api/v1/namespaces`` → namespace; not ``/namespaces/{name}``)."""
    if method_of(api) != "GET":
        return None
    segments = [s for s in path_of(api).strip("/").split("/") if s]
    if not segments or segments[-1].startswith("{"):
        return None
    tail = words(segments[-1].split(".")[0])
    return tail[-1] if tail else None


def _headed_by(o: _Out, tail: str, listed: str | None) -> bool:
    """A field named ``tail`` alone, or a compound ending in it whose words before name what the consumer
    lists (``machineSelector`` for a list of machines; not ``hostSelector``)."""
    name = o.leaf if o.leaf.casefold().endswith(tail) else o.container.rsplit(".", 1)[-1]
    head = name[: len(name) - len(tail)]
    return not head or (listed is not None and name_singular(head.casefold()) == listed)


def _item_key(o: _Out) -> str | None:
    """``items[].metadata.name`` → ``metadata.name``: the field's path inside one list item."""
    head, sep, rest = o.field.partition("[].")
    return rest if sep and "[]" not in rest and head and "." not in head else None


def _named_kind(o: _Out) -> str:
    """The kind of thing a field names an item of: ``nodeName`` → node, ``claimName`` → claim,
    ``configMap.name`` → configmap, ``shelfRef.name`` → shelf (a reference to one); '' for any other field."""
    leaf = o.leaf
    if leaf.endswith("Name") and len(leaf) > 4:
        return leaf[:-4].casefold()
    if leaf == "name" and o.container:
        owner = o.container.rsplit(".", 1)[-1].replace("[]", "")
        return _REFERENCE.sub("", owner).casefold() or owner.casefold()
    return ""


_REFERENCE = re.compile(r"(?<=[a-z])(?:Ref|Reference)$")  # "shelfRef": the object refers to a shelf


def _one_per_producer(found: list[tuple[_Out, str]]) -> list[tuple[_Out, str]]:
    """Producers' fields in the order they share a limit: reads first, an item's own read before its
    sub-resources (``/racks/{name}`` before ``/racks/{name}/status``), the shallowest field first; each
    producer's best field before any producer's second (fields nested alike in many kinds of thing, a
    template's ``volumes[].rack.rackName``, leave room for all of them)."""
    ranked = sorted(
        found,
        key=lambda f: (
            method_of(f[0].api) != "GET",
            not path_of(f[0].api).endswith("}"),
            nesting(f[0].field),
            f[0].api.key,
        ),
    )
    taken: dict[str, int] = defaultdict(int)
    rounds = []
    for o, _ in ranked:
        rounds.append(taken[o.api.key])
        taken[o.api.key] += 1
    return [f for _, f in sorted(zip(rounds, ranked, strict=True), key=lambda r: r[0])]


class LooseIds:
    """The two indexes, built once per pass: item names by the resource whose collection lists them,
    bare-value lists by the resource they are named for."""

    def __init__(self, graph: _RestGraph) -> None:
        self.graph = graph
        self.names: dict[str, list[_Out]] = defaultdict(list)
        self.values: dict[str, list[_Out]] = defaultdict(list)
        self.kind_named: dict[str, list[_Out]] = defaultdict(list)  # ``spec.nodeName`` under "node"
        for o in graph.outs:
            named = _named_kind(o)
            if named:
                self.kind_named[named].append(o)
        self.by_word: dict[str, list[_Out]] = defaultdict(list)  # ``spec.selector(.matchLabels)``
        for o in graph.outs:
            owner = o.container.rsplit(".", 1)[-1] if o.container else ""
            # and the last word of the owner's compound name (``machineSelector``): a compound leaf's own is
            # read nowhere (``tail_names`` wants a leaf named the word, or an owner ending in it)
            tail = ws[-1] if len(ws := words(owner)) > 1 else ""
            for word in {o.leaf.casefold(), owner.casefold(), tail} - {""}:
                if len(word) >= MIN_TAIL and word.isalpha() and "[]" not in o.field:
                    self.by_word[word].append(o)
        self.required = {p.name.casefold() for a in graph.kept for p in a.params if p.required}
        self.declaring = {
            a.key
            for a in graph.kept
            if any(p.required and p.name.casefold() not in CREDENTIAL_PARAMS for p in a.params)
        }
        self.first_sentences: dict[tuple[str, str, str], set[str]] = {}  # words a field's description says
        self.item_fields: dict[tuple[str, str], list[_Out]] = defaultdict(list)  # (thing, field) of a list
        self.described: dict[tuple[str, str], set[str]] = defaultdict(set)  # "timestamp of the message"
        for api in graph.kept:
            for p in api.params:
                if (said := _OF_THING.match(p.description)) is not None:
                    self.described[(said[1].casefold(), name_singular(said[2]))].add(p.name)
        for o in graph.outs:
            head, sep, rest = o.field.partition("[].")
            if sep and "." not in rest and "[]" not in rest and head.rsplit(".", 1)[-1].isalpha():
                self.item_fields[(name_singular(head.rsplit(".", 1)[-1]), rest)].append(o)
        for o in graph.outs:
            resource = _collection_of(o.api) if _item_key(o) in ITEM_NAME_KEYS else None
            if resource is not None:
                self.names[resource].append(o)
            bare = o.field.rstrip("[]")
            if o.field.endswith("[]") and "." not in bare and graph.base(o.domain_type) == "string":
                self.values[name_singular(bare)].append(o)

    def needed(self, consumer: Api, param: Param) -> bool:
        """An optional parameter of an operation that declares none required (a spec declaring its
        inputs loosely), named as one another operation requires (``ts`` of ``conversations.replies``)."""
        return param.name.casefold() in self.required and consumer.key not in self.declaring

    def qualified_names(self, consumer: Api, param: Param) -> None:
        """A parameter named as a field with a qualifier before it (``originSkyId`` ← ``skyId``,
        ``destinationEntityId`` ← ``entityId``) or as alternatives (``username_or_id_or_url`` ←
        ``username``): an identifier or alternative named whole, at a word boundary."""
        if not param.required or self.graph.base(param.domain_type) in ("object", "array"):
            return
        found: list[tuple[_Out, str]] = []
        for leaf in qualified_leaves(param.name):
            for o in self.graph.candidates(leaf.casefold(), consumer):
                if o.leaf == leaf and self.graph.compatible(o.domain_type, param.domain_type):
                    found.append((o, f"{param.name} names the field {leaf} ({o.field})"))
        self.graph._take(found, consumer, param, EdgeLevel.ALIAS)

    def item_names(self, consumer: Api, param: Param, resource: str) -> None:
        """A parameter naming a resource (``{namespace}``, not an ``…_id``) fed by the name of each item
        of that resource's own collection, at the exact-name level: the item's own
        ``metadata.namespace`` names something else."""
        if param.name.casefold() != resource or not param.required:
            return
        found = [
            (o, f"{o.field} names each {resource} {o.api.key} lists → {param.name}")
            for o in self.names.get(resource, ())
            if self.graph.compatible(o.domain_type, param.domain_type)
        ]
        self.graph._take(found, consumer, param, EdgeLevel.NAME_TYPE, resource)

    def resource_named(self, param: Param) -> str | None:
        """The resource a scalar parameter is named as, without an id suffix (``channel``, ``user``;
        ``users``, a list of them): an id the spec declares as a plain string (Slack's
        ``conversations.history`` takes ``channel``, the id ``channels[].id`` of ``conversations.list``)."""
        name = param.name.casefold()
        if "_" in name or self.graph.base(param.domain_type) != "string":
            return None
        resource = name_singular(name)
        return resource if resource in self.graph.resources else None

    def kind_names(self, consumer: Api, param: Param, resource: str) -> None:
        """The item key of a path (``{name}`` after ``nodes``) fed by a field naming an item of that kind
        (``spec.nodeName`` of a workload, ``spec.volumeName`` of a claim for ``persistentvolumes``, the
        ``configMap.name`` a volume refers to): the kind, or its last word of four letters or more,
        before ``Name``, or the object holding a ``name``; at the exact-name level."""
        if param.location != "path" or param.name.casefold() not in ITEM_KEYS or not param.required:
            return
        found = [
            (o, f"{o.field} names a {resource} → {param.name}")
            for tail in {resource[i:] for i in range(max(1, len(resource) - 3))} | {resource}
            if len(tail) >= min(4, len(resource))
            for o in self.kind_named.get(tail, ())
            if self.graph.compatible(o.domain_type, param.domain_type)
        ]
        # reads first, a single item's field before a list's (each its own share of the limit): the
        # producer's own ``{name}`` names another thing, so it is no circular need here
        for listed in (False, True):
            part = _one_per_producer([f for f in found if ("[]" in f[0].field) is listed])
            taken = 0
            for o, why in part:
                if self.graph.limit is not None and taken >= self.graph.limit:
                    break
                taken += self.graph.offer(o, consumer, param, EdgeLevel.NAME_TYPE, why)

    def tail_names(self, consumer: Api, param: Param) -> None:
        """An optional parameter named for what qualifies a thing (``labelSelector``) fed by the thing's
        own read naming it so (``spec.selector`` of ``GET …/services/{name}``, the
        ``spec.selector.matchLabels`` of a deployment): the last word of the parameter's name, of six
        letters or more, as an object field or the object holding one, of one item read by its path, whose
        path or the first sentence of its description says a word before it (``matchLabels``, "with label
        keys": labelSelector; not fieldSelector or shardSelector, which the rule fed too before)."""
        parts = words(param.name)
        if param.required or len(parts) < 2 or len(parts[-1]) < MIN_TAIL or param.location != "query":
            return
        tail = parts[-1]
        if not param.name.casefold().endswith(tail):
            return
        qualifiers = parts[:-1]  # "label" of labelSelector: the field must say it
        listed = _collection_of(consumer)
        found = [
            (o, f"{o.field} is the {tail} {param.name} names")
            for o in self.by_word.get(tail, ())
            if (o.leaf.casefold() == tail or o.container.casefold().endswith(tail))
            and self.graph.base(o.domain_type) == "object"
            and method_of(o.api) == "GET"
            and path_of(o.api).endswith("}")
            and _headed_by(o, tail, listed)
            and any(self._says(o, word) for word in qualifiers)
        ]
        for o, why in sorted(found, key=lambda f: (nesting(f[0].field), f[0].api.key)):
            self.graph.offer(o, consumer, param, EdgeLevel.ALIAS, why)

    def described_fields(self, consumer: Api, param: Param) -> None:
        """A parameter whose description names the field of a thing that it takes ("A message's `ts`
        value"), or says it is the same of the thing as another parameter named as a field ("Timestamp of
        the message to pin", as ``ts`` is "Timestamp of the message to be deleted"), fed by that field of
        each item of a list of those things (``messages[].ts``), at the exact-name level. Not a path's
        item key (``{name}``, ``kind_names``: "name of the ResourceClaim" is no workload's
        ``resourceClaims[].name``)."""
        if self.graph.base(param.domain_type) in ("object", "array") or (
            param.location == "path" and param.name.casefold() in ITEM_KEYS
        ):
            return
        wanted: set[tuple[str, str]] = set()
        if (owned := _OWNED_FIELD.search(param.description)) is not None:
            wanted.add((name_singular(owned[1]), owned[2]))
        if (said := _OF_THING.match(param.description)) is not None:
            thing = name_singular(said[2])
            wanted.update((thing, name) for name in self.described[(said[1].casefold(), thing)])
        found = [
            (o, f"{param.name} is said to be the {field} of a {thing} ({o.field})")
            for thing, field in sorted(wanted)
            for o in self.item_fields.get((thing, field), ())
            if {self.graph.base(o.domain_type), self.graph.base(param.domain_type)} <= _SCALARS
        ]
        self.graph._take(found, consumer, param, EdgeLevel.NAME_TYPE)

    def _says(self, o: _Out, word: str) -> bool:
        """Whether a field's path or the first sentence of its description says ``word`` (singular)."""
        if word in o.field.casefold():
            return True
        key = (o.api.key, o.table, o.field)
        if key not in self.first_sentences:
            column = next(
                (c for t in o.api.output_tables if t.name == o.table for c in t.columns if c.name == o.field),
                None,
            )
            said = column.description.split(". ", 1)[0] if column is not None else ""
            self.first_sentences[key] = {name_singular(w) for w in re.findall(r"[a-z]+", said.casefold())}
        return word in self.first_sentences[key]

    def scalar_lists(self, consumer: Api, param: Param) -> None:
        """A parameter named as a resource (``channel``) fed by a list of bare values named for it
        (``channels[]``: the spec gives its items no fields, so each item is the resource's id)."""
        name = param.name.casefold()
        if not param.required or self.graph.base(param.domain_type) != "string" or "_" in name:
            return
        found = [
            (o, f"{o.field}: a list of {name} values → {param.name}")
            for o in self.values.get(name, ())
            if o.field.rstrip("[]").casefold() != name
        ]
        self.graph._take(found, consumer, param, EdgeLevel.ALIAS)
