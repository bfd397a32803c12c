"""What the APIs of a snapshot do (an action read off each key) and which dropped APIs a request fits:
the signals by which a search says a request orders what no callable API does."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import numpy as np

from apiatlas.catalog.actions import (
    HTTP_METHODS,
    _plural,
    action_of,
    item_of_collection,
    key_action,
    lookup_key,
    method_and_segments,
    requested_actions,
    resource_of,
    verb_places,
)
from apiatlas.language.actions import (
    ASKING_VERBS,
    REQUEST_WORDS,
    WRITE_WORDS,
    is_read_verb,
    orders_write_in,
)
from apiatlas.language.words import AMOUNT_WORDS, MANNER_WORDS, QUESTION_WORDS
from apiatlas.search.confidence import coverage
from apiatlas.search.families import Families
from apiatlas.search.lexical import LexicalIndex
from apiatlas.search.twins import Twins, number_forms
from apiatlas.snapshot.catalog_reader import CatalogReader
from apiatlas.snapshot.manifest import serving_of
from apiatlas.text import content_terms, split_identifier, stem, stems

ACTION_KIND = {"list": "read", "retrieve": "read", "replace": "update"}  # actions of one kind
READS = frozenset(("", "list", "retrieve"))  # what a read does (a procedure's read says none)
# the share of its score kept by an operation on another resource than those the request names, as
# for a missing order. 0.8 raised the dev halves (hybrid R@5 Kubernetes 0.732 -> 0.759, Stripe 0.950 ->
# 0.961) but lowered both test halves (Kubernetes 0.721 -> 0.714, Stripe 0.988 -> 0.965): not kept
OTHER_RESOURCE = 0.9
LOOKUP_CANDIDATES = 10  # the dropped APIs best fitting a request that looks a thing up, checked


class ApiActions:
    """The actions of a snapshot's kept (``lexical``) and dropped (``dropped``) APIs, read once."""

    def __init__(
        self, snapshot: CatalogReader, lexical: LexicalIndex | None, dropped: LexicalIndex | None
    ) -> None:
        self.snapshot = snapshot
        self._lexical = lexical
        self._dropped = dropped
        self._key_action: dict[str, str] | None = None
        self._done: frozenset[str] | None = None  # every action some API does
        self._shapes: dict[str, tuple[str, str, str]] = {}  # key -> (resource, collection, part), read once
        self._code: bool | None = None
        self._takes: dict[str, frozenset[str]] = {}  # API key -> the stems of its parameters
        self._kept_takes: dict[str, frozenset[str]] = {}  # object -> its kept APIs' ones
        self._twins: Twins | None = None
        self._families: Families | None = None
        self._name_verbs: dict[str, str] = {}  # key -> the verb its name opens with (``name_verb``)

    def families(self) -> Families:
        """The families of the kept operations (``search.families``), read once."""
        if self._families is None:
            self._families = Families()
        return self._families

    def twins(self) -> Twins:
        """The kept operations' scope twins and variants (``search.twins``), read once."""
        if self._twins is None:
            self._twins = Twins(self._lexical.keys if self._lexical is not None else ())
        return self._twins

    def key_actions(self) -> dict[str, str]:
        """What each kept and each dropped API does, when its key says it (``catalog.actions``: an HTTP
        operation's list, create, ...; a procedure's open, close, create, ...), read off the keys."""
        if self._key_action is None:
            index = self._lexical
            owners: dict[str, str] = {}
            if index is not None:
                owners.update(zip(index.keys, map(str, index.objects), strict=True))
            if self._dropped is not None:
                titles = self.snapshot.api_titles(self._dropped.keys)
                owners.update((k, titles.get(k, ("", ""))[0]) for k in self._dropped.keys)
            found = {key: key_action(key, obj) for key, obj in owners.items()}
            self._key_action = {k: a for k, a in found.items() if a}
        return self._key_action

    def demote_unasked(
        self,
        fused: dict[str, float],
        said: list[str],
        asked: Mapping[str, str],
        factor: float,
        *,
        named_writes: bool = True,
    ) -> set[str]:
        """Scale down by ``factor`` the APIs a request does not ask for, by what they do:
        - another kind of action than the request orders ("create a checkout session" wants the
          ``POST``, not the list beside it; reads are one kind — "get all customers" is a list as often
          as one customer —, so are update and replace);
        - a write, when the request orders no change (no word of ``language.actions.WRITE_WORDS``
          anywhere but a verb asking with its object, ``orders_write_in``: "orders of store 12", "which
          price lists exist?", «выдай список …» read), unless the snapshot
          serves code (``code_members``); with ``named_writes``, also an operation whose method and path
          say no action but whose name opens with a change verb (``name_verb``: "what's the topic of
          board b1" does not want ``/boards.setTopic``), unless a request word in a verb's place, no asking
          verb, opens a candidate's name ("reset …": ``/sessions.reset``; "list …" and ``/boards.list`` not);
        - one item of a collection the request names in the plural, written as one word or as two or
          three ("orders", "price lists": ``GET /orders/{id}`` beside ``GET /orders``);
        - an operation on another resource (``resource_of``) than those the request names, when it
          names one (``resources_named``: "delete store 12" wants ``DELETE /stores/{id}``, not
          ``DELETE /stores/{store}/orders/{id}``), by ``OTHER_RESOURCE`` instead of ``factor``; an
          operation on a part of one item (``part_of``: ``GET /stores/{id}/status``) is on the resource
          the request names in the singular ("store 12"), not on one it names in the plural ("stores").
        Each applies once per API. Returns the candidates on a resource the request names (a part of
        one item of it too)."""
        actions = self.key_actions()
        kinds = self.wanted_kinds(said, asked)
        named = {"".join(said[i : i + n]) for n in (1, 2, 3) for i in range(len(said) - n + 1)}
        read = self._shapes  # ``_shape`` of each from its cache, no call per candidate
        shapes = {key: read.get(key) or self._shape(key) for key in fused}
        named_resources = resources_named(said, {r for r, _, _ in shapes.values()} - {""})
        # "deployment web": the parts of one (``…/{name}/status``) are on it; "deployments": they are not.
        # Named as the path writes it is in the plural when the path writes a plural ("boards"), in the
        # singular when it writes a singular (``/board/{name}``: "board")
        singular = {r for r in named_resources if (r in named) != _plural(r)}
        for key, (resource, _, part_of) in shapes.items() if named_resources else ():
            # "persistent volume claims": not the volumes'
            if resource and resource not in named_resources and part_of not in singular:
                fused[key] *= OTHER_RESOURCE
        writes = self._named_writes(fused, said) if named_writes and kinds == {"read"} else set()
        for key in fused:
            done = actions.get(key)
            # "what's the topic of …" reads: not ``/boards.setTopic``, whose name says its action
            unasked = ACTION_KIND.get(done, done) not in kinds if done else key in writes
            if kinds and unasked:
                fused[key] *= factor
            collection = shapes[key][1]
            if collection and collection in named:
                fused[key] *= factor
        if not named_resources:  # (``singular`` is some of them)
            return set()
        return {
            k
            for k, (resource, _, part) in shapes.items()
            if (resource and resource in named_resources) or (part and part in singular)
        }

    def wanted_kinds(self, said: list[str], asked: Mapping[str, str]) -> set[str]:
        """The kinds of action a request asks for: those it orders, else a read when it orders no
        change (none in a code snapshot, whose members' verbs change nothing by being found)."""
        return {ACTION_KIND.get(a, a) for a in asked} or (
            set() if self.code_members() or orders_write_in(said) else {"read"}  # «выдай список …» reads
        )

    def orders_read(self, said: list[str]) -> bool:
        """Whether a request says it reads: a verb that asks or reads in a verb's place ("show …",
        «выведи …»), or a question word among its first two ("which …", «какие …»); "how" asks the way
        to act ("how do I suspend …", «как приостановить …»), and reads only an amount ("how many …")."""
        if any(w in ASKING_VERBS or is_read_verb(w) for w in verb_places(said)):
            return True
        return any(
            w in QUESTION_WORDS
            and (w not in MANNER_WORDS or not AMOUNT_WORDS.isdisjoint(said[at + 1 : at + 2]))
            for at, w in enumerate(said[:2])
        )

    def kinds_of(self, keys: Iterable[str]) -> dict[str, str]:
        """The kind of action (``ACTION_KIND``) each of ``keys`` does, when its key says it; a ``GET``
        whose path says no action (an RPC method's, ``GET /things.info``) reads: HTTP's GET is safe,
        unless its name opens with a change verb (``GET /things.revoke``: a write, as ``demote_unasked``
        reads it)."""
        actions = self.key_actions()
        out: dict[str, str] = {}
        for key in keys:
            action = actions.get(key)
            if action:
                out[key] = ACTION_KIND.get(action, action)
            elif key.startswith("GET ") and self._name_verb(key) not in WRITE_WORDS:
                out[key] = "read"
        return out

    def _shape(self, key: str) -> tuple[str, str, str]:
        """``(resource_of(key), item_of_collection(key), part_of(key))``, read once per key (searches
        meet the same APIs again and again)."""
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = (resource_of(key), item_of_collection(key), part_of(key))
        return shape

    def _name_verb(self, key: str) -> str:
        """``name_verb(key)``, read once per key."""
        found = self._name_verbs.get(key)
        if found is None:
            found = self._name_verbs[key] = name_verb(key)
        return found

    def _named_writes(self, fused: Mapping[str, float], said: list[str]) -> set[str]:
        """The candidates whose names open with a change verb (``name_verb``), none when a word of the
        request in a verb's place (``language.actions.verb_places``) opens a candidate's name: "reset my
        password" orders the reset a name says, though the language's lexicon lacks the verb. A verb that
        asks ("list …", "get …": ``/boards.list``, ``/users.getPresence``) orders no change by opening one."""
        verbs = {w for w in verb_places(said) if w not in ASKING_VERBS and not is_read_verb(w)}
        opening = {key: self._name_verb(key) for key in fused}
        if verbs & set(opening.values()):
            return set()
        return {key for key, verb in opening.items() if verb in WRITE_WORDS}

    def code_members(self) -> bool:
        """A code snapshot's APIs are members, whose names' verbs ("Add", "Close") change nothing of
        the caller's by being found: a request ordering no change does not demote them."""
        if self._code is None:
            self._code = serving_of(self.snapshot.manifest()).surface == "code"
        return self._code

    def requested(self, said: list[str]) -> dict[str, str]:
        """The actions the request's words ask for (``catalog.actions.requested_actions``) that some API
        of the catalog, kept or dropped, does (no "create" on a read-only API)."""
        if self._done is None:  # read once: a set of every API's action costs ~1 ms at 100,000 APIs
            self._done = frozenset(self.key_actions().values())
        return {a: w for a, w in requested_actions(said).items() if a in self._done}

    def dropped_fits(
        self, terms: list[str], object_key: str | None = None, asked: Mapping[str, str] | None = None
    ) -> list[tuple[str, str, float, str]]:
        """``(key, funnel stage, rarity-weighted coverage, action)`` of the dropped APIs best fitting
        ``terms``; an action of ``asked`` (``{action: query word}``) covers its query word when the API
        does it ("закрой": ``usp_Order_Close``, "создай": ``usp_Payment_Add``)."""
        dropped = self._dropped
        if dropped is None or not terms:
            return []
        asked = asked or {}
        stands_for = {stem(a): stem(w) for a, w in asked.items()}
        rarity = {t: dropped.idf(t) for t in terms}
        actions = self.key_actions()
        found: list[tuple[str, str, float, str]] = []
        for key, _, matched in dropped.search([*terms, *stands_for], 3):
            if object_key is not None and self.snapshot.api_object(key) != object_key:
                continue
            stage = str(dropped.objects[dropped.keys.index(key)])
            said = [stands_for.get(m, m) for m in matched]
            found.append((key, stage, coverage(said, terms, rarity), actions.get(key, "")))
        return found

    def dropped_lookups(self, query: str, terms: list[str], first: list[str]) -> list[tuple[str, str, str]]:
        """``(key, funnel stage, the key's words)`` of the dropped reads best fitting the request's
        ``terms`` (the first ``LOOKUP_CANDIDATES``) that look a thing up by the key the request gives a
        value of (``catalog.actions.lookup_key``: "by tax number 7701234567") when no kept API of their
        business object takes it, nor any of the ``first`` kept hits: each of the key's stems is in the
        dropped API's parameters (names and descriptions: "tax number of the store", ``TaxNumber``), none
        in any parameter of those kept APIs (a store's look-up by tax number dropped, only its look-up by
        id kept; but a kept customer's look-up by tax number among the first hits serves "find the
        customer by tax number …")."""
        words = lookup_key(query)
        dropped = self._dropped
        wanted = set(content_terms(stems(" ".join(words))))
        if dropped is None or not wanted:
            return []
        actions = self.key_actions()
        if any(wanted & self.takes(k) for k in first):
            return []
        found: list[tuple[str, str, str]] = []
        for key, _, _ in dropped.search([*terms, *wanted], LOOKUP_CANDIDATES):
            if actions.get(key, "") not in READS or not wanted <= self.takes(key):
                continue
            if not wanted & self.kept_takes(self.snapshot.api_object(key)):
                found.append((key, str(dropped.objects[dropped.keys.index(key)]), " ".join(words)))
        return found

    def takes(self, key: str) -> frozenset[str]:
        """The stems of an API's parameters' names and descriptions (cached)."""
        if key not in self._takes:
            api = self.snapshot.get_api(key)
            params = api.params if api is not None else []
            self._takes[key] = frozenset(s for p in params for s in stems(f"{p.name} {p.description}"))
        return self._takes[key]

    def kept_takes(self, object_key: str) -> frozenset[str]:
        """The parameter stems (``takes``) of a business object's kept APIs (cached)."""
        if object_key not in self._kept_takes:
            index = self._lexical
            rows = np.flatnonzero(index.objects == object_key) if index is not None else np.array([], int)
            keys = [index.keys[i] for i in rows] if index is not None else []
            self._kept_takes[object_key] = frozenset(s for k in keys for s in self.takes(k))
        return self._kept_takes[object_key]


def name_verb(key: str) -> str:
    """The word that opens the last name of an HTTP operation whose method and path say no action
    (``catalog.actions.action_of``: an RPC method, ``POST /chat.postMessage`` "post"; a ``POST`` to a
    literal, ``…/orders/{id}/send`` "send"); "" for any other key, and for a name that ends with the word of
    a list (``/tags.tagList``, ``/pulls.open_list``: lists, whatever opens them)."""
    method, segments = method_and_segments(key)
    literals = [s for s in segments if not s.startswith("{")]
    if method not in HTTP_METHODS or not literals or action_of(key):
        return ""
    name = literals[-1].rsplit(".", 1)[-1]
    words = [w.lower() for raw in re.findall(r"[^\W_]+", name) for w in split_identifier(raw)]
    if len(words) > 1 and words[-1] in REQUEST_WORDS["list"]:  # ``/tags.tagList``: a list, no tagging
        return ""
    return words[0] if words else ""


def resources_named(said: list[str], resources: set[str]) -> set[str]:
    """The ``resources`` a request names: one of its words, or two or three of them joined, is the
    resource in the singular or the plural ("order", "orders"; "notes" for "note"; "price lists";
    "policy" for "policies"). A resource named only inside a longer named one ("price list" in "price
    list items") is not named."""
    forms = {r: _number_forms(r) for r in resources}
    spans: dict[str, tuple[int, int]] = {}
    for n in (3, 2, 1):
        for i in range(len(said) - n + 1):
            joined = _number_forms("".join(said[i : i + n]))
            for resource in resources:
                if resource not in spans and forms[resource] & joined:
                    spans[resource] = (i, i + n)
    return {
        r
        for r, (a, b) in spans.items()
        if not any(c <= a and b <= d and d - c > b - a for q, (c, d) in spans.items() if q != r)
    }


def part_of(key: str) -> str:
    """The collection whose item an HTTP operation acts on a part of, its path ending in that
    collection, an item's parameter and a literal that is no plural (``GET /v1/stores/{id}/status``:
    "stores"; ``…/stores/{id}/orders`` is a collection of its own); "" otherwise."""
    _, segments = method_and_segments(key)
    if len(segments) < 3 or segments[-1].startswith("{") or not segments[-2].startswith("{"):
        return ""
    owner = segments[-3]
    if owner.startswith("{") or _plural(segments[-1].lower()):
        return ""
    return owner.lower().replace("-", "").replace("_", "")


def _number_forms(word: str) -> set[str]:
    """An English noun's singular readings beside itself (``twins.number_forms``), words of three letters
    or more ("statuses": status here, statuse there, where ``language.catalog.singular`` gives one)."""
    return number_forms(word) if len(word) >= 3 else set()
