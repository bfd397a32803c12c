"""What the planner reads from an immutable snapshot (APIs, edges, entry points), cached and bounded."""

from __future__ import annotations

from typing import Any

from apiatlas.catalog.model import Api
from apiatlas.language.actions import ACTION_WORDS
from apiatlas.language.catalog import singular
from apiatlas.language.words import PLAIN_WORDS, SENTENCE_WORDS
from apiatlas.planning.binding import Slot, slots
from apiatlas.planning.catalog_verbs import said_verbs
from apiatlas.planning.compound_kinds import compound_fit
from apiatlas.planning.detail_words import with_detail_words
from apiatlas.planning.draft import hint_fit, is_identifier
from apiatlas.planning.entry_inputs import EntryInputs
from apiatlas.planning.flags import flag_verbs, item_updates
from apiatlas.planning.intent import own_kind
from apiatlas.planning.kind_tails import kind_words, with_tails
from apiatlas.planning.kind_verbs import created_kinds
from apiatlas.planning.lookups import kinds_listed_by, listed_item
from apiatlas.planning.page_lists import page_kind
from apiatlas.planning.prefixed import prefixed_verbs, with_prefixed
from apiatlas.planning.twin_routes import scoped_routes
from apiatlas.planning.twins import twin_spaces
from apiatlas.planning.write_choice import collection_write
from apiatlas.snapshot import CatalogReader
from apiatlas.snapshot.graph_links import Link


class SnapshotCache:
    """What the planner reads from an immutable snapshot, kept across plans (bounded)."""

    MAX_ITEMS = 50_000

    def __init__(self, snapshot: CatalogReader) -> None:
        self.snapshot = snapshot
        self.apis: dict[str, Api | None] = {}
        self.edges: dict[str, list[Link]] = {}
        self.by_input: dict[str, dict[tuple[str | None, str], list[Link]]] = {}
        self.strongest: dict[tuple[str, str | None, str, str], dict[str, Link]] = {}
        self.consumers: dict[str, list[str]] = {}
        self.lists: dict[str, set[str]] = {}
        self.entry_points: set[str] | None = None
        self.feeding_lists: dict[str, set[str]] | None = None
        self.inputs: dict[str, list[Slot]] = {}
        self.entry_inputs: EntryInputs | None = None
        self.fits: dict[tuple[str, str], float] = {}
        self.kinds: dict[str, str] = {}
        self.output_lists: dict[str, set[str]] = {}
        # the catalog's kinds of things and synonyms; a compound kind also named by its last words
        # and a hyphenated prefixed word of its titles by its parts ("unstar": "un star", ``prefixed``)
        # and a word asking for a thing's details it never says as those it does (``detail_words``)
        self.names = list(snapshot.kept_api_names())  # (key, title) of every kept API, read once
        titles = [t for _, t in self.names]
        plain = PLAIN_WORDS | SENTENCE_WORDS | ACTION_WORDS  # no initials
        vocabulary = with_prefixed(with_tails(snapshot.vocabulary(), titles, plain, self._said_of), titles)
        self.vocabulary = with_detail_words(vocabulary, self.names)
        compound = [k for k in self.vocabulary.kinds if len(k) >= 2 * 4]  # as ``with_tails`` reads them
        self.kind_parts = kind_words(compound, titles)  # each closed-compound kind's words (``tails_said``)
        self.verbs: frozenset[str] | None = None
        self.pages: dict[str, set[str]] | None = None
        self.paged: dict[str, set[str]] = {}  # a page list's key -> the kinds it holds (``pages`` read back)
        self.created: dict[str, list[str]] | None = None
        self.spaces: frozenset[str] | None = None
        self.scoped: dict[str, list[tuple[str, str]]] | None = None
        self.collections: frozenset[str] | None = None

    def _said_of(self, word: str, kind: str) -> bool:
        """Whether the catalog's search finds, among its best three hits for ``word``, an operation on
        things of ``kind`` (a path segment naming it): the catalog says ``word`` of that kind."""
        return any(
            kind in {singular(p) for p in hit.api_key.lower().split("/")}
            for hit in self.snapshot.search(word, limit=3)
        )

    def _room(self, table: dict[Any, Any]) -> None:
        if len(table) >= self.MAX_ITEMS:
            table.clear()

    def api(self, key: str) -> Api | None:
        try:  # read tens of thousands of times a plan: one lookup when kept
            return self.apis[key]
        except KeyError:
            self._room(self.apis)
            api = self.apis[key] = self.snapshot.get_api(key)
            return api

    def slots(self, api: Api) -> list[Slot]:
        """``binding.slots(api)``, kept."""
        if api.key not in self.inputs:
            self._room(self.inputs)
            self.inputs[api.key] = slots(api)
        return self.inputs[api.key]

    def own_kind(self, api: Api) -> str:
        """``intent.own_kind`` of an API with the catalog's vocabulary, kept."""
        if api.key not in self.kinds:
            self._room(self.kinds)
            self.kinds[api.key] = own_kind(api, self.vocabulary)
        return self.kinds[api.key]

    def hint_fit(self, hint: str, api: Api, qualifier: str = "") -> float:
        """``draft.hint_fit`` of a value's hint and an API, with the catalog's kinds, kept; with the word
        before the kind noun, its ``compound_kinds.compound_fit`` besides."""
        if not hint:
            return 0.0
        key = (hint, api.key)
        if key not in self.fits:
            self._room(self.fits)
            self.fits[key] = hint_fit(hint, api, self.vocabulary.kind_set)
        return self.fits[key] + compound_fit(qualifier, hint, api.key) if qualifier else self.fits[key]

    def entries_stating(self, found: list[Any], known: bool) -> dict[str, set[int]] | None:
        """The entry points a stated value may fill an input of (``EntryInputs.stating``; None: any)."""
        if self.entry_inputs is None:
            apis = (self.api(k) for k in sorted(self.entries()))
            self.entry_inputs = EntryInputs.of(a for a in apis if a is not None)
        return self.entry_inputs.stating(found, known)

    def edges_into(self, key: str) -> list[Link]:
        """The edges into ``key`` (its producers), strongest level first, as ``Link``s."""
        if key not in self.edges:
            self._room(self.edges)
            self.edges[key] = self.snapshot.links_into(key)
        return self.edges[key]

    def consumers_of(self, key: str) -> list[str]:
        """The APIs ``key`` feeds, strongest edge first, each once."""
        if key not in self.consumers:
            self.read_consumers([key])
        return self.consumers[key]

    def read_consumers(self, keys: list[str]) -> None:
        """``consumers_of`` of the ``keys`` not read yet, read together (one query per few hundred: the
        entry points near a request's values are hundreds on a large catalog)."""
        unread = [k for k in keys if k not in self.consumers]
        if unread:
            self._room(self.consumers)
            for key, consumers in self.snapshot.consumers_of(unread).items():
                self.consumers[key] = list(dict.fromkeys(consumers))

    def listed_kinds(self, key: str) -> set[str]:
        """The kinds of thing an API's output lists: a field of a list (``members[].id``) feeds the
        identifier input of an API returning that kind (``GET /person/{person_id}``: a person)."""
        if key not in self.lists:
            self.read_listed_kinds([key])
        return self.lists[key]

    def read_listed_kinds(self, keys: list[str]) -> None:
        """``listed_kinds`` of the ``keys`` not read yet, their edges from a list field read together
        (``list_links_out_of``; none read on a graph without list fields)."""
        unread = [k for k in dict.fromkeys(keys) if k not in self.lists]
        if unread:
            self._room(self.lists)
            for key, links in self.snapshot.list_links_out_of(unread).items():
                kinds: set[str] = set()
                for consumer_key, consumer_field, domain_type in links:
                    consumer = self.api(consumer_key)
                    if consumer is not None and is_identifier(consumer_field, domain_type):
                        kinds.add(self.own_kind(consumer))
                self.lists[key] = kinds - {""}

    def kinds_listed_by(self, api: Api) -> set[str]:
        """``lookups.kinds_listed_by(api)``: the kinds of thing its output lists, kept."""
        if api.key not in self.output_lists:
            self._room(self.output_lists)
            self.output_lists[api.key] = kinds_listed_by(api)
        return self.output_lists[api.key]

    def listed_items(self) -> dict[str, set[str]]:
        """The kinds of thing some list feeds an input with (``messages[].ts`` → message) and the APIs
        listing each, read once (``list_producers``: each producer and list field once; reading every edge
        of a 31,580-API graph took 1.2 s)."""
        if self.feeding_lists is None:
            self.feeding_lists, self.pages = {}, {}
            kinds = self.vocabulary.kind_set
            for producer, field in self.snapshot.list_producers():
                if kind := listed_item(field):
                    self.feeding_lists.setdefault(kind, set()).add(producer)
                if held := page_kind(producer, field, kinds):  # a page of a kind (``page_lists``)
                    self.pages.setdefault(held, set()).add(producer)
                    self.paged.setdefault(producer, set()).add(held)
        return self.feeding_lists

    def page_lists(self) -> dict[str, set[str]]:
        """The kinds a page list holds (``page_lists.page_lists``: ``data[]`` of ``GET /boxes``), once."""
        if self.pages is None:
            self.listed_items()  # read with the lists named for a kind, in one pass
        return self.pages or {}

    def paged_kinds(self, key: str) -> set[str]:
        """The kinds the page list ``key`` holds (``page_lists`` read back, once): none for any other API."""
        self.page_lists()
        return self.paged.get(key, set())

    def creates(self) -> dict[str, list[str]]:
        """The kinds a ``POST`` to their collection creates, and those keys (``kind_verbs.created_kinds``)."""
        if self.created is None:
            self.created = created_kinds(self.snapshot.all_api_keys(), self.vocabulary.kind_set)
        return self.created

    def write_verbs(self) -> frozenset[str]:
        """The verbs the catalog's writes say (``catalog_verbs.said_verbs``), read from the keys once, and
        those their titles open with as a hyphenated prefixed word (``prefixed.prefixed_verbs``) and the
        boolean fields updates of an item write (``flags.flag_verbs``)."""
        if self.verbs is None:
            self.verbs = said_verbs(self.snapshot.all_api_keys(), self.vocabulary.kinds)
            self.verbs |= prefixed_verbs(self.names)  # "Un-stars an item": unstar
            updates = (self.api(k) for k in item_updates(self.snapshot.all_api_keys()))
            self.verbs |= flag_verbs(updates, self.vocabulary.kinds)  # ``spec.halt``: "Halt the …"
        return self.verbs

    def item_collections(self) -> frozenset[str]:
        """The writes done to a whole collection whose item write the catalog also has (``DELETE …/boxes``
        beside ``DELETE …/boxes/{name}``; ``write_choice.collection_write``), read from the keys once."""
        if self.collections is None:
            keys = set(self.snapshot.all_api_keys())
            self.collections = frozenset(c for k in keys if (c := collection_write(k)) in keys)
        return self.collections

    def namespaces(self) -> frozenset[str]:
        """The leading parts the catalog puts before several of its operations (``twins.twin_spaces``)."""
        if self.spaces is None:
            self.spaces = twin_spaces(self.snapshot.all_api_keys())
        return self.spaces

    def scoped_twins(self, key: str) -> list[tuple[str, str]]:
        """The routes doing what ``key`` does under one parent more, with that parent's key input
        (``GET /shelves/{shelf}/books`` and ``shelf`` beside ``GET /books``; ``twin_routes.scoped_routes``).
        """
        if self.scoped is None:
            self.scoped = scoped_routes(k for k, _ in self.names)
        return self.scoped.get(key, [])

    def entries(self) -> set[str]:
        if self.entry_points is None:
            self.entry_points = set(self.snapshot.entry_points())
        return self.entry_points

    def feeding(self, key: str, table: str | None, name: str) -> list[Link]:
        """Edges into one input of ``key`` whose producer field is an output-table column."""
        if key not in self.by_input:
            index: dict[tuple[str | None, str], list[Link]] = {}
            for edge in self.edges_into(key):
                if edge.producer_table is not None:
                    index.setdefault((edge.consumer_table, edge.consumer_field.lower()), []).append(edge)
            self._room(self.by_input)
            self.by_input[key] = index
        return self.by_input[key].get((table, name.lower()), [])

    def strongest_by_producer(
        self, key: str, table: str | None, name: str, kind: str = ""
    ) -> dict[str, Link]:
        """Per producer, its strongest edge into one input of ``key`` (of equal levels the least nested
        field, ``user.id`` before ``user.enterprise_user.id``; then the first, in ``feeding`` order): a
        chain step looks up its few earlier steps instead of every edge."""
        slot = (key, table, name.lower(), kind)
        if slot not in self.strongest:
            best: dict[str, Link] = {}
            for edge in self.feeding(key, table, name):
                held = best.get(edge.producer)
                if held is None or _strength(edge, kind) < _strength(held, kind):
                    best[edge.producer] = edge
            self._room(self.strongest)
            self.strongest[slot] = best
        return self.strongest[slot]


def _strength(edge: Link, kind: str) -> tuple[int, bool, int]:
    """An edge's level, then whether its field names the kind of thing the input takes (``spec.nodeName``
    for the ``{name}`` of a node, not the workload's own ``metadata.name``), then how deep it lies (lower is
    stronger)."""
    field = edge.producer_field
    said = bool(kind) and any(
        kind[i:] in field.lower() for i in range(max(1, len(kind) - 3)) if len(kind[i:]) >= min(4, len(kind))
    )
    return edge.rank, not said, field.count(".") + field.count("[]")
