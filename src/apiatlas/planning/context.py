"""One plan's working state: stated values, bindings and scores per API, entry points near the values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from apiatlas.catalog.model import Api
from apiatlas.language.catalog import singular
from apiatlas.planning import lookups
from apiatlas.planning import values as v
from apiatlas.planning.binding import Bound, Slot, bind
from apiatlas.planning.kind_verbs import new_kinds
from apiatlas.planning.relevance import Relevance
from apiatlas.planning.roles import places
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.snapshot.graph_links import Link
from apiatlas.text import stem


@dataclass
class PlanContext:
    """One plan's state: the request's values and words, and what was worked out about each API."""

    cache: SnapshotCache
    relevance: Relevance
    found: list[v.ExtractedValue]
    known: dict[str, Any]
    bound: dict[str, dict[tuple[str | None, str], Bound]] = field(default_factory=dict)
    open_inputs: dict[str, list[Slot]] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    shortlists: dict[str, tuple[list[str], dict[str, int]]] = field(default_factory=dict)  # see Planner
    usable: dict[str, bool] = field(default_factory=dict)  # whether a chain may use an API (see ChainScoring)
    stating: dict[str, float] = field(default_factory=dict)  # how well each API takes the values (fit.states)
    distance: dict[str, int] | None = None
    words: list[str] = field(default_factory=list)
    request: str = ""
    kind: str = ""  # the kind of thing the request asks something about (see ``intent.asked_kind``)
    plural: bool = False  # ... said in the plural ("Which channels …"): a list of them answers
    who: bool = False  # the request asks who: a list of people answers it (see ``intent.asks_who``)
    counted: frozenset[str] = frozenset()  # stems of what the request counts (see ``intent.counted``)
    verb: str = ""  # the verb of an action ordering a write (``actions.RequestAction``); "" for a read
    gives: bool = False  # ... giving a thing to what a pronoun stands for (``RequestAction.gives``)
    newest: frozenset[str] = frozenset()  # kinds of thing the request asks the newest of, that a list holds
    every: bool = False  # the request says a change is done to every thing of a kind (``says_every``)
    collective: dict[str, str] = field(default_factory=dict)  # a collection write -> its item write
    partial: dict[str, str] = field(default_factory=dict)  # a PATCH -> the PUT of its path it serves for
    members: frozenset[str] = frozenset()  # writes to the things in where a thing goes (``intent.holds``)
    pointed: str = ""  # an action pointing back: the API the action before it ends at
    bridged: frozenset[str] = frozenset()  # catalog stems its foreign words read as (``read_across``)
    foreign: dict[str, str] = field(default_factory=dict)  # stems of its foreign words -> the kinds they name
    route: dict[int, tuple[str, str]] | None = None  # the places the request states (``places``)
    new: frozenset[str] | None = None  # the kinds of the things the request states as new (``said_new``)
    singulars: frozenset[str] | None = None  # its words in the singular (``said_kinds``), read once
    listing: dict[str, tuple[set[str], bool]] = field(default_factory=dict)  # see ``ChainScoring._listing``

    def new_kinds(self) -> frozenset[str]:
        """The kinds of the things the request states as new ("a box B": ``kind_verbs.new_kinds``), once; none
        in a read ("show a product named Gold": a product looked up, not one to create)."""
        if self.new is None:
            kinds = self.cache.vocabulary.kind_set
            self.new = frozenset(new_kinds(self.request, self.found, kinds) if self.verb else ())
        return self.new

    def creating(self, key: str) -> bool:
        """Whether ``key`` creates a thing the request states as new ("Create a box B with a lid L": the
        box's create may feed the lid's)."""
        return any(key in self.cache.creates().get(k, ()) for k in self.new_kinds())

    def api(self, key: str) -> Api | None:
        return self.cache.api(key)

    def said_kinds(self, kinds: Iterable[str]) -> set[str]:
        """Those of ``kinds`` the request says: a word of it (singular), or a word in another script read
        as the kind's stem («сообщения» as "messag": message)."""
        if self.singulars is None:
            self.singulars = frozenset(singular(w) for w in self.words)
        said = self.singulars
        return {k for k in kinds if k in said or (self.bridged and stem(k) in self.bridged)}

    def places(self) -> dict[int, tuple[str, str]]:
        """``roles.places`` of the request and its values, read once per plan."""
        if self.route is None:
            self.route = places(self.request, self.found)
        return self.route

    def edges_into(self, key: str) -> list[Link]:
        return self.cache.edges_into(key)

    def entries(self) -> set[str]:
        return self.cache.entries()

    def strongest_by_producer(
        self, key: str, table: str | None, name: str, kind: str = ""
    ) -> dict[str, Link]:
        return self.cache.strongest_by_producer(key, table, name, kind)

    def near_values(self) -> dict[str, int]:
        """Entry points that take a stated value (0) and the APIs they feed directly (1). Only the entry
        points that may take enough of the values are bound (``SnapshotCache.entries_stating``: the
        values each may fill; a value adds at most 1 + its kind fit, 0..2, to the sum judged here)."""
        if self.distance is None:
            self.distance = {}
            stating = self.cache.entries_stating(self.found, bool(self.known))
            for key in sorted(self.entries() if stating is None else stating):
                api = self.api(key)
                if api is None:
                    continue
                if stating is not None and self._fit(api, stating[key]) <= 0.5:
                    continue  # the values it may take fit it too little even if all were bound
                if stating is not None and self._surely_near(api, stating[key]):
                    self.distance[key] = 0
                    continue
                bound = self.bindings(api).values()
                if self._fit(api, [b.index for b in bound if b.index >= 0]) > 0.5 or any(
                    b.known_as for b in bound
                ):
                    self.distance[key] = 0
            near = [k for k, d in self.distance.items() if d == 0]
            self.cache.read_consumers(near)
            for key in near:
                for consumer in self.cache.consumers_of(key):
                    self.distance.setdefault(consumer, 1)
        return self.distance

    def _surely_near(self, api: Api, values: set[int]) -> bool:
        """Whether ``bind`` would give the API one of ``values`` fitting it well enough, unbound: with no
        value known by name, the first input one of them fills takes one (``binding.fills`` is what
        ``bind`` tries first), so when each fits (1 + kind fit > 0.5) the API is near. Not for names
        said beside a kind, which an input takes only when no list gives it its id."""
        found = self.found
        return all(found[i].kind != v.NAME and self._fit(api, [i]) > 0.5 for i in values)

    def _fit(self, api: Api, values: Iterable[int]) -> float:
        found = self.found
        return sum(1.0 + self.cache.hint_fit(found[i].hint, api, found[i].qualifier) for i in values)

    def bindings(self, api: Api) -> dict[tuple[str | None, str], Bound]:
        if api.key not in self.bound:
            self.bound[api.key] = bind(
                api, self.found, self.known, self.words, self.cache.vocabulary.kind_set, self.request,
                lambda name: self.looked_up(api, name), self.cache.slots(api),
            )  # fmt: skip
        return self.bound[api.key]

    def looked_up(self, api: Api, name: str) -> bool:
        """Whether a list of named items feeds ``api``'s input ``name`` its id (``lookups.looked_up``)."""
        edges = self.edges_into(api.key)
        producers = {e.producer: a for e in edges if (a := self.api(e.producer)) is not None}
        return lookups.looked_up(edges, name, producers)
