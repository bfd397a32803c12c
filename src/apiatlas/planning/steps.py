"""A chain's steps: the inputs no stated value fills, the earlier step feeding each, and the tally of a
chain's hops, values and gaps that its score is made of."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from apiatlas.catalog.model import Api
from apiatlas.language.catalog import singular
from apiatlas.planning import values as v
from apiatlas.planning.binding import Slot, accepts, slots
from apiatlas.planning.context import PlanContext
from apiatlas.planning.draft import FOREIGN_KEY_FACTOR, StepInput, StepInputs, own_key
from apiatlas.planning.filter_inputs import feedable
from apiatlas.planning.lookups import (
    OWN_ID_FIELDS,
    URL_FIELDS,
    input_kind,
    item_change,
    item_kind,
    pick_field,
    picked_name,
    singular_kind,
    wanted,
)
from apiatlas.planning.model import LEVEL_CONFIDENCE
from apiatlas.planning.page_lists import held_kind, own_id
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.planning.write_choice import reads
from apiatlas.snapshot.graph_links import Link


@dataclass
class ChainTally:
    """What scoring a chain counts over its steps (the values it takes, what it misses, its hops)."""

    missing: list[str] = field(default_factory=list)
    used: set[int] = field(default_factory=set)  # the stated values (indexes) the steps take
    used_known: set[str] = field(default_factory=set)  # the caller's known values the steps take
    choice_only: int = 0  # missing inputs with a closed list of values: the agent picks one
    choices: int = 0  # inputs with a closed list of values the request names
    composed: int = 0  # missing objects a write's body carries: the change itself (``write_choice.composed``)
    confidence: float = 1.0
    edge_penalty: float = 0.0
    kind_fit: float = 0.0
    attribute_hops: int = 0  # hops through a value many things share, rather than the thing's identifier
    unfed: int = 0  # optional inputs of a kind no step feeds (``lookups.wanted``)
    nested_hops: int = 0  # hops reading a list inside each row of a list (``results[].known_for[].id``)
    newest: set[str] = field(default_factory=set)  # kinds asked the newest of that a list step feeds
    other_kind: int = 0  # an item's key fed by the same key of another kind of thing (``names_another_kind``)
    rereads: int = 0  # reads of each item a list of them returned (``lookups.rereads_listed``)

    def copy(self) -> ChainTally:
        """A tally of its own (``dataclasses.replace`` costs a chain's scoring a third more)."""
        return ChainTally(
            list(self.missing), set(self.used), set(self.used_known), self.choice_only, self.choices,
            self.composed, self.confidence, self.edge_penalty, self.kind_fit, self.attribute_hops,
            self.unfed, self.nested_hops, set(self.newest), self.other_kind, self.rereads,
        )  # fmt: skip


def open_inputs(ctx: PlanContext, api: Api) -> list[Slot]:
    """Required inputs no stated value fills (an input table needs one filled column), and the optional
    ones named as a kind of thing of the catalog (``lookups.wanted``: a chain may feed them, ``required``
    False) — not of a read a value the request states already filters ("the latest box of owner o_1":
    the boxes of that owner; the list's other filters are options, no lookup's to fill)."""
    if api.key in ctx.open_inputs:
        return ctx.open_inputs[api.key]
    bound = ctx.bindings(api)
    voc = ctx.cache.vocabulary
    named = _named_producers(ctx, api) | newest_fed(ctx, api) | ctx.new_kinds()  # "with a new box"
    filtered = reads(api) and _states(ctx, api)  # a read the request's values filter: the rest are options
    out = [
        s
        for s in slots(api)
        if s.table is None
        and (s.required or (not filtered and feedable(api, s.name, voc)) or s.name.lower() in named)
        and (None, s.name) not in bound
    ]
    for table in api.input_tables:
        if not any((table.name, c.name) in bound for c in table.columns):
            out.extend(Slot(c.name, table.name, c.domain_type, True) for c in table.columns[:1])
    ctx.open_inputs[api.key] = out
    return out


def from_earlier(
    ctx: PlanContext, apis: list[Api], index: int, slot: Slot, but: frozenset[int] = frozenset()
) -> StepInput | None:
    """The strongest edge from an earlier step (nearest first on ties; not from the steps ``but``) into
    ``slot``."""
    best: tuple[int, int, Link] | None = None
    earlier = {a.key: i for i, a in enumerate(apis[:index]) if i not in but}
    kind = item_kind(apis[index], slot.name) if slot.table is None else ""
    strongest = ctx.strongest_by_producer(apis[index].key, slot.table, slot.name, kind)
    newest = ctx.newest and slot.table is None  # the newest asked: a page list gives its items' own id
    pages = ctx.cache.page_lists().get(input_kind(apis[index], slot.name), ()) if newest else ()
    for producer, at in earlier.items():
        edge = strongest.get(producer)
        if producer in pages:  # a page list of the thing: its items' own id (``page_lists.own_id``)
            edges = ctx.cache.feeding(apis[index].key, None, slot.name)
            kinds = ctx.cache.vocabulary.kind_set
            edge = own_id(edges, producer, input_kind(apis[index], slot.name), kinds) or edge
        if edge is None:
            continue
        rank = (edge.rank, index - at)
        if best is None or rank < best[:2]:
            best = (rank[0], rank[1], edge)
    if best is None:
        return None
    edge = best[2]
    own = own_key(apis[earlier[edge.producer]], edge.producer_table, edge.producer_field)
    return StepInput(
        name=slot.name, table=slot.table, origin="step", from_step=earlier[edge.producer],
        from_table=edge.producer_table, from_field=edge.producer_field, level=edge.level.value,
        confidence=LEVEL_CONFIDENCE[edge.level.value] * (1.0 if own else FOREIGN_KEY_FACTOR),
        domain_type=slot.domain_type,
    )  # fmt: skip


def more_columns(ctx: PlanContext, apis: list[Api], index: int, first: StepInput) -> StepInputs:
    """Other columns of the same input table fed by the same earlier output table."""
    table = next(t for t in apis[index].input_tables if t.name == first.table)
    out = []
    for column in table.columns:
        if column.name == first.name or (table.name, column.name) in ctx.bindings(apis[index]):
            continue
        slot = Slot(column.name, table.name, column.domain_type, False)
        more = from_earlier(ctx, apis, index, slot)
        if more and more.from_step == first.from_step and more.from_table == first.from_table:
            out.append(replace(more, required=False))
    return out


def required_inputs(cache: SnapshotCache) -> dict[tuple[str, str], list[str]]:
    """Every API's required parameters, (name, domain type) -> API keys (read once per planner)."""
    out: dict[tuple[str, str], list[str]] = {}
    for key in cache.snapshot.all_api_keys():
        api = cache.api(key)
        for p in api.params if api is not None else []:
            if p.required:
                out.setdefault((p.name, p.domain_type), []).append(key)
    return out


def taking_ids(ctx: PlanContext, required: dict[tuple[str, str], list[str]]) -> list[str]:
    """APIs a stated opaque id fills a required input of ("Show the customer cus_123": the customer
    API by id): the thing the request names by id, whatever words its card uses. Only the APIs with
    a required input an id can fill (``required``: ``required_inputs``) are bound, not the whole
    snapshot."""
    ids = [f for f in ctx.found if f.kind == v.IDENTIFIER]
    if not ids:
        return []
    candidates = sorted(
        {
            key
            for (name, domain_type), keys in required.items()
            if any(accepts(f, Slot(name, None, domain_type, True)) for f in ids)
            for key in keys
        }
    )
    out = []
    for key in candidates:
        api = ctx.api(key)
        if api is None or not api.funnel.kept:
            continue
        needed = {(None, p.name) for p in api.params if p.required}
        bound = ctx.bindings(api)
        if any(
            ctx.found[b.index].kind == v.IDENTIFIER for k, b in bound.items() if k in needed and b.index >= 0
        ):
            out.append(key)
    return out


def picks(ctx: PlanContext, head: Api) -> set[str]:
    """The producers that can pick, by a name the request says ("the channel releases"), the item whose id
    an open input of ``head`` takes (``lookups.pick_field``): tried first."""
    named = {f.hint for f in ctx.found if f.kind == v.NAME}
    urls = URL_FIELDS if any(f.kind == v.URL for f in ctx.found) else ()  # or a web address an item has
    bare = frozenset(ctx.cache.vocabulary.named_inputs) if "" in named else frozenset()
    out: set[str] = set()
    for slot in open_inputs(ctx, head) if named or urls else []:
        by_name = input_kind(head, slot.name) in named | bare
        feeding = ctx.strongest_by_producer(head.key, slot.table, slot.name) if by_name or urls else {}
        for producer, edge in feeding.items():
            api = ctx.api(producer)
            table, field = edge.producer_table, edge.producer_field
            if api is not None and (
                (by_name and pick_field(api, table, field)) or (urls and pick_field(api, table, field, urls))
            ):
                out.add(producer)
    return out


def picked_list(ctx: PlanContext, apis: list[Api], index: int) -> bool:
    """Whether step ``index`` is a list taking nothing that a stated name picks from for the next step
    (a lookup independent of the steps before it: "invite bob@… to the channel backend" looks the user
    up by e-mail and the channel up by name)."""
    api = apis[index]
    return (
        index + 1 < len(apis)
        and not open_inputs(ctx, api)
        and not ctx.bindings(api)
        and api.key in picks(ctx, apis[index + 1])
    )


def blind(ctx: PlanContext, producer: Api, source: StepInput) -> bool:
    """Whether ``source`` reads a list of a step taking nothing (every channel of
    ``GET /conversations.list``) without picking an item by a stated name: no stated value, and no open
    input — or, the chain's first step, optional ones only, which nothing before it feeds."""
    if "[]" not in (source.from_field or "") or source.pick_value is not None or ctx.bindings(producer):
        return False
    opened = open_inputs(ctx, producer)
    return not opened or (source.from_step == 0 and not any(s.required for s in opened))


def needing(ctx: PlanContext, head: Api, path: tuple[str, ...]) -> Api:
    """The step whose open inputs the path is extended for: the head, or, when the head is a list
    taking nothing that a stated name picks from ("the channel backend"), the step it feeds (its
    other inputs need lookups of their own: "invite bob@… to the channel backend")."""
    if len(path) < 2 or open_inputs(ctx, head) or not any(f.kind in (v.NAME, v.URL) for f in ctx.found):
        return head
    fed = ctx.api(path[1])
    return fed if fed is not None and head.key in picks(ctx, fed) else head


def fed_input(ctx: PlanContext, apis: list[Api], index: int, slot: Slot, used: set[int]) -> StepInput | None:
    """The earlier step feeding ``slot`` (``from_earlier``), picking its item by a stated name when it
    lists named things (``lookups.picked_name``: the name joins ``used``), or its first item when the
    request asks the newest of the things the list holds ("the latest message": ``messages[].ts``,
    ``pick_first``); an optional input, or any input of a write, is not fed by every item of a list
    taking nothing (``blind``)."""
    source = from_earlier(ctx, apis, index, slot)
    if source is None:
        return None
    producer = apis[source.from_step or 0]
    where = (source.from_table, source.from_field or "")
    named = frozenset(ctx.cache.vocabulary.named_inputs)
    picked = picked_name(ctx.found, producer, apis[index], where, slot.name, used, named)
    if picked is not None:
        used.add(picked[0])
        return replace(source, pick_field=picked[1], pick_value=ctx.found[picked[0]].value)
    if newest_pick(ctx, source.from_field or "", producer.key):  # "the latest message": the first of them
        return replace(source, pick_first=True)
    fans = not reads(apis[index]) and _unsaid_fan_out(ctx, source, apis[index], slot.name)  # each of a list
    if fans or ((not slot.required or not reads(apis[index])) and blind(ctx, producer, source)):
        # every item of a list taking nothing: no lookup of the one the call is about; a step looking up
        # a thing the request names may give it (the user an e-mail names, not a group list's members)
        but = frozenset({source.from_step or 0})
        other = from_earlier(ctx, apis, index, slot, but) if index > 1 else None
        if other is None or not _states(ctx, apis[other.from_step or 0]):
            return None
        return other if _id_of(other.from_field or "", input_kind(apis[index], slot.name)) else None
    if not slot.required and not _names(ctx, producer) and _only_named(ctx, apis[index], slot.name):
        return None  # opened for the read of a named thing (``_named_producers``): another step's is not it
    return source


def _unsaid_fan_out(ctx: PlanContext, source: StepInput, api: Api, name: str) -> bool:
    """Whether a write's input ``name`` would take every item of a list (``files[].id``, no item picked
    by a stated name or as the newest) where the request says no "every", no word of the input's name and
    not the kind its path names (``{name}`` after ``deployments``) ("remove X from the channel C": no change
    to each file of C; "delete every file …", "cancel the message scheduled in …", "restart the
    deployments in …" say what the list holds)."""
    if "[]" not in (source.from_field or "") or source.pick_value is not None or source.pick_first:
        return False
    if ctx.every:
        return False
    words = {singular_kind(w) for w in re.findall(r"[A-Z]?[a-z]+", name) if w.lower() not in ("id", "ids")}
    return not ctx.said_kinds(words | {input_kind(api, name)})


def _id_of(field: str, kind: str) -> bool:
    """Whether ``field`` is the id of a thing of ``kind`` (``user.id`` of a user)."""
    head, _, leaf = field.replace("[]", "").rpartition(".")
    return bool(kind) and leaf.lower() in OWN_ID_FIELDS and singular_kind(head.rpartition(".")[2]) == kind


def _states(ctx: PlanContext, api: Api) -> bool:
    """Whether ``api`` takes a value the request states (an e-mail, a name, a number)."""
    return any(b.index >= 0 for b in ctx.bindings(api).values())


def _names(ctx: PlanContext, api: Api) -> bool:
    """Whether ``api`` takes a name the request says ("deployment web")."""
    return any(b.index >= 0 and ctx.found[b.index].kind == v.NAME for b in ctx.bindings(api).values())


def _only_named(ctx: PlanContext, api: Api, name: str) -> bool:
    """Whether the optional input ``name`` of ``api`` is open only because a read of a named thing feeds it
    (``_named_producers``), not as one a loosely declared spec needs (``lookups.wanted``)."""
    vocabulary = ctx.cache.vocabulary
    return not wanted(api, name, False, vocabulary) and name.lower() in _named_producers(ctx, api)


def newest_pick(ctx: PlanContext, field: str, producer: str = "") -> bool:
    """Whether ``field`` is a thing's own field in a list of the things the request asks the newest of
    (``messages[].ts`` for "the latest message"; not ``messages[].user``, another kind's id), the list
    named for them or a page the ``producer`` lists them in (``page_lists.held_kind``)."""
    if not ctx.newest or field.count("[]") != 1:
        return False
    if held_kind(producer, field, ctx.cache.vocabulary.kind_set, ctx.newest) not in ctx.newest:
        return False
    leaf = field.rpartition(".")[2].lower()
    return re.sub(r"_?id$", "", leaf) not in ctx.cache.vocabulary.kind_set


def picked_newest(ctx: PlanContext, apis: list[Api], steps: list[StepInputs]) -> set[str]:
    """The kinds the request asks the newest of that a step picks the first of (``pick_first``) from a
    list step whose own optional inputs of a kind are fed (the history of the board the request names,
    not of no board: its latest note is no board's)."""
    out: set[str] = set()
    for inputs in steps:
        for source in inputs:
            if not source.pick_first or source.from_step is None:
                continue
            given = {i.name for i in steps[source.from_step]}
            if all(s.name in given for s in open_inputs(ctx, apis[source.from_step])):
                kinds, producer = ctx.cache.vocabulary.kind_set, apis[source.from_step].key
                out.add(held_kind(producer, source.from_field or "", kinds, ctx.newest))
    return out


def newest_fed(ctx: PlanContext, api: Api) -> set[str]:
    """The optional inputs of ``api`` a list of the things the request asks the newest of feeds (the
    ``timestamp`` of ``pins.add`` from ``messages[].ts``, for "pin the latest message")."""
    if not ctx.newest:
        return set()
    return {
        e.consumer_field.lower()
        for e in ctx.edges_into(api.key)
        if e.consumer_table is None and newest_pick(ctx, e.producer_field, e.producer)
    }


def _named_producers(ctx: PlanContext, api: Api) -> set[str]:
    """The optional inputs of ``api`` a read of a thing the request names feeds ("the machines of fleet
    blue": ``GET …/fleets/{name}`` taking blue gives the machines' ``labelSelector``), or a read taking an
    e-mail address ``api`` does not take ("the files ann@example.com uploaded": the user looked up by
    it gives the files list's ``user``)."""
    own = {b.index for b in ctx.bindings(api).values()}
    mailed = any(f.kind == v.EMAIL and i not in own for i, f in enumerate(ctx.found))
    if not mailed and not any(f.kind == v.NAME for f in ctx.found):
        return set()
    out: set[str] = set()
    for edge in ctx.edges_into(api.key):
        producer = ctx.api(edge.producer) if edge.consumer_table is None else None
        if producer is None or edge.consumer_field.lower() in out or _item_of(producer, api):
            continue
        if item_change(api, edge.consumer_field):  # a write to one item carries what is said of it
            continue
        if _names(ctx, producer) or (mailed and _mailed(ctx, producer, own)):
            out.add(edge.consumer_field.lower())
    return out


def _item_of(call: Api, create: Api) -> bool:
    """Whether ``call`` acts on one item of the collection ``create`` posts to (``GET /boxes/{name}`` of
    ``POST /boxes``): the item a create makes is not there to call before it."""
    method, _, path = create.key.partition(" ")
    head, _, last = call.key.partition(" ")[2].rstrip("/").rpartition("/")
    return method == "POST" and head == path.rstrip("/") and last.startswith("{")


def _mailed(ctx: PlanContext, api: Api, but: set[int]) -> bool:
    """Whether ``api`` is a read taking a stated e-mail address, none of the indexes ``but``."""
    return reads(api) and any(
        b.index >= 0 and b.index not in but and ctx.found[b.index].kind == v.EMAIL
        for b in ctx.bindings(api).values()
    )


def asked_fed(ctx: PlanContext, cache: SnapshotCache) -> list[str]:
    """The reads about the kind of thing the request asks about that a read of a thing it names feeds
    ("Which machines does fleet blue …": the machines a fleet's selector selects)."""
    if not ctx.kind:
        return []
    out: set[str] = set()
    for key in sorted(k for k, d in ctx.near_values().items() if d == 0):
        api = ctx.api(key)
        if api is None or not any(
            b.index >= 0 and ctx.found[b.index].kind == v.NAME for b in ctx.bindings(api).values()
        ):
            continue
        for consumer in cache.consumers_of(key):
            fed = ctx.api(consumer)
            if fed is not None and reads(fed) and singular(consumer.rsplit("/", 1)[-1]) == ctx.kind:
                out.add(consumer)
    return sorted(out)
