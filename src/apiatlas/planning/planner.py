"""Plans chains: targets from search, paths back through the dependency graph to values the request states."""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Api, SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.language.actions import orders_write
from apiatlas.language.catalog import singular
from apiatlas.language.routes import said_role
from apiatlas.language.words import NAME_LINKS
from apiatlas.planning import values as v
from apiatlas.planning.actions import (
    RequestAction,
    composed,
    reads,
    replaces_whole,
    split_actions,
    write_targets,
)
from apiatlas.planning.calibrated import SHIPPED_PLAN_CONFIDENCE
from apiatlas.planning.combined import combined_plan
from apiatlas.planning.confidence import PlanConfidenceModel, judge
from apiatlas.planning.context import PlanContext
from apiatlas.planning.coordination import coordinated_things, things_apart
from apiatlas.planning.draft import (
    Draft,
    StepInput,
    StepInputs,
    ids_only,
    is_identifier,
    nested_list,
    passes_through,
)
from apiatlas.planning.entities import joined, more_entities, tie_note, with_entities
from apiatlas.planning.fit import adds_nothing, entry_fit, kind_fit, nearer_in_meaning, states, unasked
from apiatlas.planning.intent import asked_kind, asks_who, counted
from apiatlas.planning.lookups import bare_names, created_names, listed_item, newest_things, said_names
from apiatlas.planning.model import CandidateChain, PlanResult, PlanValue
from apiatlas.planning.relevance import (
    Relevance,
    Terms,
    known_words,
    plain_verbs,
    read_across,
    request_words,
    search_text,
)
from apiatlas.planning.retrieval import PlanSearch
from apiatlas.planning.roles import one_lookup_per_end, places
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.planning.steps import (
    ChainTally,
    fed_input,
    more_columns,
    needing,
    newest_fed,
    open_inputs,
    picked_list,
    picked_newest,
    picks,
    required_inputs,
    taking_ids,
)
from apiatlas.planning.weights import PlanLimits, Weights
from apiatlas.search.hybrid import HybridSearch
from apiatlas.snapshot import CatalogReader

__all__ = ["PlanLimits", "Planner", "Weights", "reads_only"]  # the bounds and weights live in weights.py

_ACRONYM = re.compile(r"([A-Z]{2,6})(?:-\d{1,4})?")  # "SMS", "COVID-19"
_SUBJECTS = {
    v.SURNAME, v.ENTITY, v.ACCOUNT_NUMBER, v.INN, v.ISIN, v.DOC_NUMBER, v.IDENTIFIER, v.EMAIL, v.NAME,
}  # fmt: skip


def reads_only(api: Api) -> bool:
    """The ``allow`` of a planner whose chains must run on a read-only server (the default one)."""
    return api.side_effect is SideEffect.READ


class Planner:
    """Ranked candidate chains for a request and/or a target API over one snapshot."""

    def __init__(
        self,
        snapshot: CatalogReader,
        limits: PlanLimits | None = None,
        weights: Weights | None = None,
        allow: Callable[[Api], bool] | None = None,
        search: HybridSearch | None = None,
        confidence: PlanConfidenceModel | None = SHIPPED_PLAN_CONFIDENCE,
    ):
        """``allow``: which kept APIs a chain may use (the server's: reads, and the writes an operator
        enabled for the caller's role — a chain its caller cannot run is no plan); None: every kept API.
        ``search``: the snapshot's search engine, when the caller has one (the server's ``search`` tool):
        the planner ranks APIs with it, not with an index of its own. ``confidence``: the model of how
        likely a top chain is right (``planning.confidence``; None: every plan is confident)."""
        self.snapshot = snapshot
        self.allow = allow
        self.limits = limits or PlanLimits()
        self.weights = weights or Weights()
        self.cache = SnapshotCache(snapshot)
        self._api_terms: dict[str, Terms] = {}
        self.search = PlanSearch(snapshot, search)
        self.confidence = confidence
        self._known: frozenset[str] | None = None
        self._terms_seen: dict[str, bool] = {}  # acronym -> whether the catalog's cards use it
        self._inputs: dict[tuple[str, str], list[str]] | None = None  # for requests naming an id

    @property
    def known(self) -> frozenset[str]:
        """The words the planner knows (plain words, the catalog's vocabulary): never read as typos."""
        if self._known is None:
            self._known = frozenset(known_words(self.cache.vocabulary))
        return self._known

    def _catalog_term(self, value: v.ExtractedValue, request: str = "") -> bool:
        """An acronym read as a name ("SMS" in "какие SMS отправляли ...") that the catalog's cards use
        ("Канал: SMS, EMAIL"), or a name made of the words of the catalog's API keys ("Search Acme"
        beside ``Acme_Search_User``): a word of the request, not a value to pass to an API."""
        if value.kind != v.ENTITY:
            return False
        if self.search.names_apis(value.text):
            return True
        acronym = _ACRONYM.fullmatch(value.text)
        if acronym is None or said_role(request, value.text):
            return False  # "from Ethereum to USD": a name said for an end of a route is a value
        if value.text not in self._terms_seen:  # "COVID-19" where the cards say "COVID-19 statistics"
            self._terms_seen[value.text] = self.search.uses_term(acronym.group(1))
        return self._terms_seen[value.text]

    def _term_dropped(self, value: v.ExtractedValue) -> v.ExtractedValue:
        """A name opening with a catalog term and a link ("COVID-19 in Russia"): the name after the link."""
        head, _, rest = value.text.partition(" ")
        link, _, name = rest.partition(" ")
        if value.kind != v.ENTITY or link.lower() not in NAME_LINKS or not name:
            return value
        if not self._catalog_term(replace(value, text=head, value=head)):
            return value
        return replace(value, value=name, text=name)

    def plan(
        self, request: str = "", target: str | None = None, known: dict[str, Any] | None = None
    ) -> PlanResult:
        """Candidate chains best first; ``missing`` in each says which inputs to ask the user for. A
        request of several actions ("archive X and post in Y", ``actions.split_actions``) is planned
        action by action and joined in its order (``combined.combined_plan``), without a ``target``; so
        are things asked together ("details and offers for X", ``coordination``) that end at different
        APIs. A request of one action also scores a chain's target by its nearness in meaning to the
        request (``PlanSearch.meaning``: one query embedding, worked out while the request is read); the
        parts of a request are planned by their words (the whole request's meaning pulls each part
        toward the others' APIs, and one embedding per part costs too much). The plan's confidence is
        judged last (``confidence.judge``)."""
        actions = split_actions(request, v.extract_values(request, self.cache.vocabulary)) if request else []
        if target is not None or len(actions) < 2:
            meaning = self.search.meaning_soon(request) if self.weights.meaning else dict
            result = self._plan_action(request, target, known, actions[0] if actions else None, meaning)
            things = coordinated_things(request) if target is None and result.chains else []
            if things:
                one = lambda a: self._plan_action(a.text, None, known, a)  # noqa: E731  (each thing alone)
                apart = things_apart(request, things, one, self.cache, self.weights.step)
                shorter = coordinated_things(request, first_phrase=True) if apart is None else []
                if shorter:  # two things ending at one API: the complement's first phrase shared only
                    apart = things_apart(request, shorter, one, self.cache, self.weights.step)
                result = apart or result
        else:
            found = v.extract_values(request, self.cache.vocabulary)
            dates = [replace(f, hint=v.ELSEWHERE) for f in found if f.kind in v.DATE_KINDS]
            parts = [(a, self._plan_action(a.text, None, known, a, dated=dates)) for a in actions]
            result = combined_plan(request, parts, self.cache, self.weights.step, self.weights.missing)
        return judge(result, self.confidence)

    def _plan_action(
        self, request: str, target: str | None, known: dict[str, Any] | None, action: RequestAction | None,
        meaning: Callable[[], dict[str, float]] = dict, dated: list[v.ExtractedValue] | None = None,
    ) -> PlanResult:  # fmt: skip
        """One action's plan: the request read (``_read``), its targets (``_targets``: a write when the
        action orders one and ``allow`` permits it), the paths to each scored (``_ranked``). ``dated``:
        the dates the whole request states, which an action of it stating none takes as its own ("find
        flights … on July 20th. Also, find hotels for those dates")."""
        started = time.perf_counter()
        ctx = self._read(request, known, meaning)
        if dated and not any(f.kind in v.DATE_KINDS for f in ctx.found):
            ctx.found.extend(dated)
        ctx.verb = action.verb if action is not None and action.writes else ""
        values = [PlanValue(kind=f.kind, value=f.value, text=f.text, hint=f.hint) for f in ctx.found]
        targets = self._targets(ctx, target)
        if isinstance(targets, tuple):
            reason, message = targets
            return PlanResult(
                status="error", reason=reason, message=message, request=request, values=values,
                elapsed_ms=_ms(started),
            )  # fmt: skip
        chains = self._ranked(ctx, targets)
        result = PlanResult(
            request=request, targets=targets, values=values, chains=chains, elapsed_ms=_ms(started)
        )
        best = chains[0] if chains else None
        if best is None:
            result.status, result.reason = "error", ReasonCode.NO_MATCH
            result.message = "no chain reaches the target from values the request states"
        elif best.missing:
            result.status, result.reason = "partial", ReasonCode.MISSING_REQUIRED_INPUT
            result.message = "ask the user for: " + ", ".join(best.missing)
        else:
            result.message = f"{len(best.steps)} step(s) from {best.entry_point} to {best.target}"
        note = tie_note(chains)
        if note and best is not None:
            best.why.append(note)
            result.message += f"; {note}"
        return result

    def _read(
        self, request: str, known: dict[str, Any] | None, meaning: Callable[[], dict[str, float]]
    ) -> PlanContext:
        """The request read: its stated values, its words (misspellings read, "show me" a verb), the
        search's ranking for them, what it asks about."""
        vocabulary = self.cache.vocabulary
        found = [
            f
            for f in map(self._term_dropped, v.extract_values(request, vocabulary))
            if not self._catalog_term(f, request)
        ]
        found += said_names(request, vocabulary, found, self.known)
        found += bare_names(request, vocabulary, found, self.known)
        stated = [f.text for f in found]
        text = plain_verbs(self.search.corrected(request, stated, self.known), vocabulary) if request else ""
        words = request_words(text, stated, vocabulary) if request else []
        words = read_across(words, self.search.read_across([w.word for w in words])) if words else []
        if len(self._api_terms) > SnapshotCache.MAX_ITEMS:
            self._api_terms.clear()
        ranked_apis = self.search.ranked(search_text(words)) if words else []
        relevance = Relevance(
            words, ranked_apis, self.search.titles(), self.search.rarity, terms_cache=self._api_terms,
            meaning=meaning, meaning_weight=self.weights.meaning,
        )  # fmt: skip
        return PlanContext(
            self.cache, relevance, found, dict(known or {}), words=[w.word for w in words],
            kind=asked_kind(text, stated, vocabulary), who=asks_who(text), counted=counted(text, stated),
            request=request, newest=self._newest(request),
        )  # fmt: skip

    def _newest(self, request: str) -> frozenset[str]:
        """The kinds of thing the request asks the newest of (``lookups.newest_things``) that a list holds."""
        asked = newest_things(request)
        return asked & self.cache.listed_items().keys() if asked else frozenset()

    def _targets(self, ctx: PlanContext, target: str | None) -> list[str] | tuple[ReasonCode, str]:
        """The APIs a chain may end at, best first (the named ``target`` alone), or why there are none."""
        if target is not None:
            api = ctx.api(target)
            if api is None:
                return ReasonCode.UNKNOWN_API, f"unknown API {target!r}"
            if self.allow is not None and not self.allow(api):
                return (
                    ReasonCode.NOT_EXECUTABLE,
                    f"{api.key} is not callable here (side effect '{api.side_effect.value}')",
                )
            return [api.key]
        # search hits, what the entry points taking a stated value feed directly, and what a stated id
        # names (it takes the id: as near the values as an entry point)
        distance = ctx.near_values()
        near = [k for k, d in sorted(distance.items(), key=lambda kv: (kv[1], kv[0])) if d == 1]
        direct = set(self._taking_ids(ctx))
        listed = self.cache.listed_items() if ctx.newest or self.cache.vocabulary.named_inputs else {}
        kinds = ctx.newest | {singular(w) for w in ctx.words if singular(w) in listed}
        listing = sorted({k for kind in kinds for k in listed[kind]})  # lists of the things said
        asked = self._asked_fed(ctx)
        pool = dict.fromkeys(
            [*sorted(direct), *ctx.relevance.hits(), *near[: self.limits.near_targets], *listing, *asked]
        )  # and the lists of the things the request asks the newest of ("show the recent messages")
        hits = [k for k in pool if self._readable(ctx, k)]
        if ctx.verb:  # an action ordering a write ends at one, when the caller may write
            hits = write_targets(hits, ctx.api, ctx.verb, ctx.words)
        elif not any(orders_write(w.lower()) for w in re.findall(r"\w+", ctx.request)):
            hits = [k for k in hits if reads(ctx.api(k))] or hits  # none ordered: a read ("Who is in …")
        targets = sorted(
            hits,
            key=lambda k: (
                -self._rel(ctx, k)
                - 0.3 * (distance.get(k, 9) <= 1 or k in direct or k in listing)
                - self.weights.kind * kind_fit(ctx, k, self.weights)
                + self.weights.replace * self._replaces(ctx, ctx.api(k)),  # type: ignore[arg-type]
                k,
            ),
        )[: self.limits.targets]
        if not targets:
            return ReasonCode.NO_MATCH, "no API matches the request; rephrase it or name the target API"
        return targets

    def _asked_fed(self, ctx: PlanContext) -> list[str]:
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
            for consumer in self.cache.consumers_of(key):
                fed = ctx.api(consumer)
                if fed is not None and reads(fed) and singular(consumer.rsplit("/", 1)[-1]) == ctx.kind:
                    out.add(consumer)
        return sorted(out)

    def _ranked(self, ctx: PlanContext, targets: list[str]) -> list[CandidateChain]:
        """The scored chains to the targets, best first; a chain joining two entities' first (``joined``)."""
        candidates: dict[tuple[str, ...], Draft] = {}
        prefixes: dict[tuple[str, ...], tuple[StepInputs, ChainTally, bool]] = {}
        for key in targets:
            for path in self._paths(ctx, key):
                draft = self._chain(ctx, path, prefixes)
                if draft is not None:
                    candidates[path] = draft
        ranked = [d for _, d in sorted(candidates.items(), key=lambda kv: (-kv[1].score, len(kv[0]), kv[0]))]
        both = joined(ctx.request, ctx.found, ranked, self.weights.unused_subject, self.weights.step)
        return [draft.build() for draft in ([both] if both else []) + ranked[: self.limits.chains]]

    def _taking_ids(self, ctx: PlanContext) -> list[str]:
        """APIs a stated opaque id fills a required input of (``steps.taking_ids``), that a chain may use."""
        if self._inputs is None:
            self._inputs = required_inputs(self.cache)
        return [k for k in taking_ids(ctx, self._inputs) if self._readable(ctx, k)]

    def _replaces(self, ctx: PlanContext, api: Api) -> float:
        """1 when ``api`` replaces a whole thing where a partial change serves (``replaces_whole``)."""
        if not api.key.startswith("PUT "):
            return 0.0
        patch = "PATCH " + api.key.partition(" ")[2]
        partial = ctx.api(patch) if self._readable(ctx, patch) else None
        return 1.0 if replaces_whole(api, partial, ctx.words) else 0.0

    def _readable(self, ctx: PlanContext, key: str) -> bool:
        api = ctx.api(key)
        return api is not None and api.funnel.kept and (self.allow is None or self.allow(api))

    def _paths(self, ctx: PlanContext, target: str) -> list[tuple[str, ...]]:
        """Paths (entry first) ending at ``target``: producers of open inputs, backwards; no cycles."""
        out: list[tuple[str, ...]] = []
        queue: deque[tuple[str, ...]] = deque(
            [(target,)]
        )  # breadth first: every short path before longer ones
        while queue and len(out) < self.limits.max_paths:
            path = queue.popleft()
            out.append(path)
            head = ctx.api(path[0])
            if head is None or len(path) >= self.limits.max_steps:
                continue
            wanting = needing(ctx, head, path)
            shortlist, best = self._shortlist(ctx, wanting)
            if not shortlist:
                continue
            fan_in = self.limits.fan_in[min(len(path), len(self.limits.fan_in)) - 1]
            near = ctx.near_values()
            picking = picks(ctx, wanting)  # lists a stated name picks from: tried first
            producers = sorted((p for p in shortlist if p not in path), key=lambda p: p not in picking)
            producers = [p for p in producers[: fan_in * 4] if self._readable(ctx, p) and reads(ctx.api(p))]
            producers.sort(
                key=lambda p: (
                    p not in picking,
                    near.get(p, 9),
                    -states(ctx, p),
                    0.15 * best[p] - self._rel(ctx, p),
                    p,
                )
            )
            for producer in producers[:fan_in]:
                queue.append((producer, *path))
        return out

    def _shortlist(self, ctx: PlanContext, head: Api) -> tuple[list[str], dict[str, int]]:
        """The producers of ``head``'s open inputs, cheapest to judge first (entry points near the stated
        values, search hits, strong edges: reading an API costs more), and each one's strongest edge rank;
        worked out once per plan and API."""
        if head.key not in ctx.shortlists:
            wanted = {(s.table, s.name.lower()) for s in open_inputs(ctx, head)}
            best: dict[str, int] = {}
            for edge in ctx.edges_into(head.key) if wanted else []:
                if (edge.consumer_table, edge.consumer_field.lower()) not in wanted:
                    continue
                rank = EDGE_LEVEL_RANK[edge.level]
                if rank < best.get(edge.producer, 99):
                    best[edge.producer] = rank
            lexical, entries, near = ctx.relevance.lexical, ctx.entries(), ctx.near_values()
            ordered = sorted(
                best, key=lambda p: (near.get(p, 9), p not in entries, -lexical.get(p, 0.0), best[p], p)
            )
            ctx.shortlists[head.key] = (ordered, best)
        return ctx.shortlists[head.key]

    def _rel(self, ctx: PlanContext, key: str) -> float:
        if key not in ctx.scores:
            api = ctx.api(key)
            ctx.scores[key] = ctx.relevance.score(api) if api is not None else 0.0
        return ctx.scores[key]

    def _chain(
        self, ctx: PlanContext, path: tuple[str, ...],
        prefixes: dict[tuple[str, ...], tuple[StepInputs, ChainTally, bool]],
    ) -> Draft | None:  # fmt: skip
        """Score one path: each step's inputs (``_step_inputs``, once per chain prefix: paths to several
        targets share their first steps), the names it takes besides, the score's terms (``_terms``);
        None when a step takes nothing from the chain or only hands an id on."""
        apis = [ctx.api(k) for k in path]
        if any(a is None for a in apis):
            return None
        chain_apis = [a for a in apis if a is not None]
        tally = ChainTally()
        steps: list[StepInputs] = []
        for index in range(len(chain_apis)):
            prefix = path[: index + 1]
            if prefix in prefixes:
                inputs, after, fed = prefixes[prefix]
                tally = after.copy()
            else:
                inputs, fed = self._step_inputs(ctx, chain_apis, index, tally)
                prefixes[prefix] = (inputs, tally.copy(), fed)
            if not (index == 0 or fed or picked_list(ctx, chain_apis, index)):
                return None
            if any(passes_through(steps[i.from_step or 0], i) for i in inputs if i.origin == "step"):
                return (
                    None  # an earlier step only hands on the id it was given: the chain is shorter without it
                )
            steps.append(list(inputs))
        routed = one_lookup_per_end(steps, places(ctx.request, ctx.found), tally.used)
        if routed is not None:  # "from Boston to Paris": one lookup per end of the route
            order, steps = routed
            chain_apis = [chain_apis[i] for i in order]
        tally.newest = picked_newest(ctx, chain_apis, steps)
        extra = more_entities(
            ctx.request, ctx.found, chain_apis[0], ctx.bindings(chain_apis[0]), tally.used, self._kinds(ctx)
        )
        if extra:
            tally.used.update(index for _, index in extra)
            chain_apis, steps = with_entities(ctx.found, chain_apis, steps, extra)
        covered: dict[int, float] = {}
        for api in chain_apis:
            for index, strength in ctx.relevance.strength(api).items():
                covered[index] = max(strength, covered.get(index, 0.0))
        subjects = {
            i for i, f in enumerate(ctx.found) if f.kind in _SUBJECTS or (f.kind == v.NUMBER and f.hint)
        }
        terms = self._terms(ctx, chain_apis, tally, covered, subjects)
        why = [f"covers {len(covered)} of {len(ctx.relevance.words)} request words"]
        if tally.used:
            why.append("uses " + ", ".join(str(ctx.found[i].value) for i in sorted(tally.used)))
        return Draft(
            chain_apis, steps, round(sum(terms.values()), 4), round(tally.confidence, 4), tally.missing, why,
            terms, used=frozenset(tally.used), unused=frozenset(subjects - tally.used),
            covered=round(sum(covered.values()) / max(1, len(ctx.relevance.words)), 4),
        )  # fmt: skip

    @staticmethod
    def _kinds(ctx: PlanContext) -> frozenset[str]:
        return ctx.cache.vocabulary.kind_set

    def _step_inputs(
        self, ctx: PlanContext, apis: list[Api], index: int, tally: ChainTally
    ) -> tuple[StepInputs, bool]:
        """The inputs of step ``index``: the values bound to it, then each open input fed by an earlier
        step or missing (asked of the user); and whether an earlier step feeds it (a later step taking
        nothing from the chain drops it, unless it is a list a stated name picks from)."""
        api = apis[index]
        inputs: StepInputs = []
        for (table, name), value in ctx.bindings(api).items():
            inputs.append(StepInput(name=name, table=table, origin=value.origin, value=value.value))
            tally.choices += 1 if value.choice else 0
            if value.known_as:
                tally.used_known.add(value.known_as.rsplit(".", 1)[-1])
            if value.index >= 0 and ctx.found[value.index].hint != v.ELSEWHERE:  # another action's
                tally.used.add(value.index)  # date spares a missing input, it earns nothing
                tally.kind_fit += ctx.cache.hint_fit(ctx.found[value.index].hint, api)
        tally.used.update(created_names(ctx.found, api, tally.used))
        fed = False
        for slot in open_inputs(ctx, api):
            source = fed_input(ctx, apis, index, slot, tally.used)
            if source is None and not slot.required:
                tally.unfed += 1  # an optional input a chain may feed (``steps.open_inputs``)
                continue
            if source is None:
                tally.missing.append(f"{api.key}.{slot.name}")
                tally.choice_only += 1 if slot.enum else 0
                tally.composed += 1 if composed(api, slot) else 0
                inputs.append(StepInput(slot.name, slot.table, "user", domain_type=slot.domain_type))
                continue
            fed = True
            picked_id = source.pick_value is not None or source.pick_first  # an item picked from a list
            tally.attribute_hops += 0 if is_identifier(slot.name, slot.domain_type) or picked_id else 1
            tally.nested_hops += 1 if nested_list(source.from_field or "") else 0
            inputs.append(source)
            tally.confidence *= source.confidence
            tally.edge_penalty += self.weights.edge * (1.0 - source.confidence)
            if source.table is not None:
                inputs.extend(more_columns(ctx, apis, index, source))
        return inputs, fed

    def _terms(
        self,
        ctx: PlanContext,
        apis: list[Api],
        tally: ChainTally,
        covered: dict[int, float],
        subjects: set[int],
    ) -> dict[str, float]:
        """The parts of a chain's score by name (``Weights``; kept in the draft for tuning)."""
        w, target = self.weights, apis[-1]
        names = {i for i in subjects if ctx.found[i].kind == v.NAME}
        writes = sum(1 for a in apis if a.side_effect is not SideEffect.READ)
        unknown_known = {k.rsplit(".", 1)[-1].lower() for k in ctx.known} - tally.used_known
        # a step picks it, or the answer lists it (taking none of those things: "the thread under the latest
        # message" is no list of messages)
        newest = tally.newest | (set() if newest_fed(ctx, target) else listed_kinds(target) & ctx.newest)
        return {
            "target": w.target * (self._rel(ctx, target.key) + ctx.relevance.nearness(target.key)),
            "kind": w.kind * kind_fit(ctx, target.key, w),
            "unasked": -w.unasked * unasked(ctx, target),
            "ids_only": -w.ids_only * ids_only(target),
            "union": w.union * ctx.relevance.share(covered),
            "others": w.others * sum(self._rel(ctx, a.key) for a in apis[:-1]),
            "steps": -w.step * (len(apis) - 1),
            "edges": -tally.edge_penalty,
            "attribute": -w.attribute * tally.attribute_hops,
            "nested": -w.nested * tally.nested_hops,
            "missing": -w.missing * (len(tally.missing) - tally.choice_only - tally.composed)
            - w.choice * tally.choice_only,
            "used": w.used_value * (len(tally.used) + tally.choices),
            "unused": -w.unused_subject * (len(subjects - tally.used - names) + len(unknown_known))
            - w.unused_name * len(names - tally.used),
            "writes": -w.write * writes,
            "replace": -w.replace * self._replaces(ctx, target),
            "unfed": -w.unfed * tally.unfed,
            "newest": w.used_value * len(newest) - w.unused_name * len(ctx.newest - newest),
            "lists": w.lists * bool(listed_kinds(target) & {singular(x) for x in ctx.words}),
            "hint": w.hint * tally.kind_fit,
            "entry": w.entry * entry_fit(ctx, apis[0]) if len(apis) > 1 else 0.0,
            "idle": -w.idle * adds_nothing(ctx, apis) * (not nearer_in_meaning(ctx, apis)),
        }


def listed_kinds(api: Api) -> set[str]:
    """The kinds of thing an API's output lists (``messages[].ts`` → message: ``lookups.listed_item``)."""
    return {listed_item(c.name) for t in api.output_tables for c in t.columns} - {""}


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
