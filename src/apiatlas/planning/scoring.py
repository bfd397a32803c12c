"""Chain scoring: the paths back from a target through the dependency graph to the values a request
states (``_paths``), and each path's steps, inputs and score by named terms (``Weights``). The planner
(``planner.Planner``) reads the request and picks the targets; this scores the chains to them."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.planning import values as v
from apiatlas.planning.context import PlanContext
from apiatlas.planning.draft import (
    Draft,
    StepInput,
    StepInputs,
    ids_only,
    nested_list,
    passes_through,
    takes_an_identifier,
)
from apiatlas.planning.entities import joined, more_entities, with_entities
from apiatlas.planning.fit import (
    adds_nothing,
    entry_fit,
    kind_fit,
    nearer_in_meaning,
    relists,
    states,
    unasked,
    wider_than_said,
)
from apiatlas.planning.lookups import created_names, names_another_kind, rereads_listed
from apiatlas.planning.model import CandidateChain
from apiatlas.planning.page_lists import asked_page
from apiatlas.planning.roles import one_lookup_per_end
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
)
from apiatlas.planning.weights import PlanLimits, Weights
from apiatlas.planning.write_choice import composed, reads, replaces_whole

_SUBJECTS = {
    v.SURNAME, v.ENTITY, v.ACCOUNT_NUMBER, v.INN, v.ISIN, v.DOC_NUMBER, v.IDENTIFIER, v.EMAIL, v.NAME, v.BODY,
}  # fmt: skip


class ChainScoring:
    """The chains to a plan's targets, scored: paths (``_paths``), each step's inputs (``_step_inputs``,
    once per chain prefix), the score's terms (``_terms``). ``allow``: which kept APIs a chain may use."""

    def __init__(self, weights: Weights, limits: PlanLimits, allow: Callable[[Api], bool] | None) -> None:
        self.weights = weights
        self.limits = limits
        self.allow = allow

    def ranked(
        self, ctx: PlanContext, targets: list[str], every_target: bool = False
    ) -> list[CandidateChain]:
        """The scored chains to the targets, best first; a chain joining two entities' first (``joined``);
        ``every_target``: then the best chain to each target the first ones do not end at (an action
        pointing back picks its target by what the actions before it acted on)."""
        candidates: dict[tuple[str, ...], Draft] = {}
        prefixes: dict[tuple[str, ...], tuple[StepInputs, ChainTally, bool]] = {}
        for key in targets:
            for path in self._paths(ctx, key):
                draft = self._chain(ctx, path, prefixes)
                if draft is not None:
                    candidates[path] = draft
        ranked = [d for _, d in sorted(candidates.items(), key=lambda kv: (-kv[1].score, len(kv[0]), kv[0]))]
        both = joined(ctx.request, ctx.found, ranked, self.weights.unused_subject, self.weights.step)
        kept = ranked[: self.limits.chains]
        if every_target:
            ends = {d.apis[-1].key for d in kept}
            for draft in ranked:
                if draft.apis[-1].key not in ends:
                    ends.add(draft.apis[-1].key)
                    kept.append(draft)
            # its last step is kept alone: a chain ranked on words only the steps before it cover comes last
            kept.sort(key=lambda d: d.terms.get("idle", 0.0) < 0)
        return [draft.build() for draft in ([both] if both else []) + kept]

    def replaces(self, ctx: PlanContext, api: Api) -> float:
        """1 when ``api`` replaces a whole thing where a partial change serves (``replaces_whole``)."""
        if not api.key.startswith("PUT "):
            return 0.0
        patch = "PATCH " + api.key.partition(" ")[2]
        partial = ctx.api(patch) if self.readable(ctx, patch) else None
        return 1.0 if replaces_whole(api, partial, ctx.words) else 0.0

    def inherited(self, ctx: PlanContext, key: str) -> float:
        """What a collection write gains from the item write it does to all ("delete all boxes": the
        relevance of ``DELETE …/boxes/{name}`` beyond that of ``DELETE …/boxes``, ``ctx.collective``), and a
        ``PATCH`` from the ``PUT`` of its path it serves for (``ctx.partial``: their titles' wording is no
        reason to replace a whole thing, ``replaces_whole``)."""
        other = ctx.collective.get(key) or ctx.partial.get(key)
        return max(0.0, self.rel(ctx, other) - self.rel(ctx, key)) if other else 0.0

    def partials(self, ctx: PlanContext, hits: list[str]) -> list[str]:
        """``hits`` with the ``PATCH`` of each ``PUT`` among them that replaces a whole thing where that
        partial change serves (``replaces``), each kept in ``ctx.partial`` (its ``PUT``)."""
        for key in hits:
            api = ctx.api(key) if key.startswith("PUT ") else None
            if api is not None and self.replaces(ctx, api):
                ctx.partial.setdefault("PATCH " + key.partition(" ")[2], key)
        return hits + [k for k in ctx.partial if k not in hits]

    def readable(self, ctx: PlanContext, key: str) -> bool:
        """Whether a chain may use ``key`` (kept, and ``allow`` lets it), once per plan and API."""
        known = ctx.usable.get(key)
        if known is None:
            api = ctx.api(key)
            known = ctx.usable[key] = (
                api is not None and api.funnel.kept and (self.allow is None or self.allow(api))
            )
        return known

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
            read = ctx.cache.api  # (``ctx.api`` without its call)
            listing = ctx.cache.kinds_listed_by  # and lists of the things asked the newest of, before the cut
            newest = (
                {p for p in shortlist if (a := read(p)) and ctx.newest & listing(a)} if ctx.newest else set()
            )
            producers = sorted(
                (p for p in shortlist if p not in path), key=lambda p: p not in picking and p not in newest
            )
            producers = [
                p
                for p in producers[: fan_in * 4]
                if self.readable(ctx, p) and (reads(read(p)) or ctx.creating(p))  # or a new thing's create
            ]
            producers.sort(
                key=lambda p: (  # a list a stated name picks from, or one of the things asked the newest
                    p not in picking and p not in newest,  # of ("the latest message"): neither crowds out
                    near.get(p, 9),
                    -states(ctx, p),
                    0.15 * best[p] - self.rel(ctx, p),
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
                if edge.rank < best.get(edge.producer, 99):
                    best[edge.producer] = edge.rank
            lexical, entries, near = ctx.relevance.lexical, ctx.entries(), ctx.near_values()
            ordered = sorted(
                best, key=lambda p: (near.get(p, 9), p not in entries, -lexical.get(p, 0.0), best[p], p)
            )
            ctx.shortlists[head.key] = (ordered, best)
        return ctx.shortlists[head.key]

    def rel(self, ctx: PlanContext, key: str) -> float:
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
        read = ctx.cache.api  # (``ctx.api`` without its call: read for every step of every path)
        apis = [read(k) for k in path]
        if any(a is None for a in apis):
            return None
        chain_apis = [a for a in apis if a is not None]
        tally, shared = ChainTally(), False  # shared: a prefix's kept tally, copied before it changes
        steps: list[StepInputs] = []
        for index in range(len(chain_apis)):
            prefix = path[: index + 1]
            if prefix in prefixes:
                inputs, tally, fed = prefixes[prefix]
                shared = True
            else:
                tally, shared = tally.copy() if shared else tally, False
                inputs, fed = self._step_inputs(ctx, chain_apis, index, tally)
                prefixes[prefix] = (inputs, tally.copy(), fed)
            if not (index == 0 or fed or picked_list(ctx, chain_apis, index)):
                return None
            if any(passes_through(steps[i.from_step or 0], i) for i in inputs if i.origin == "step"):
                return (
                    None  # an earlier step only hands on the id it was given: the chain is shorter without it
                )
            steps.append(list(inputs))
        tally = tally.copy() if shared else tally
        routed = one_lookup_per_end(steps, ctx.places(), tally.used)
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
            # a request without words (a name alone) leaves one unsaid: 0 of max(1, words) covered, as above
            uncovered=round(max(1, len(ctx.relevance.words)) - sum(covered.values()), 4),
        )  # fmt: skip

    @staticmethod
    def _listing(ctx: PlanContext, target: Api, picked: set[str]) -> bool:
        """Whether the target's output is a list named for a thing the request says (none a step before
        picks the newest of: ``picked``), or the page list of the kind the request asks for in the plural
        (``page_lists.asked_page``)."""
        read = ctx.listing.get(target.key)  # what depends on the target alone, once per plan and target
        if read is None:
            said = ctx.said_kinds(ctx.cache.kinds_listed_by(target))
            page = asked_page(ctx.kind, ctx.words, target.key, ctx.cache.page_lists())
            read = ctx.listing[target.key] = (said, page)
        said, page = read
        if said - picked:
            return True
        return ctx.kind not in picked and page

    @staticmethod
    def _lists_of(ctx: PlanContext, api: Api) -> set[str]:
        """The kinds ``api``'s output lists: its lists named for a kind, and the kind its page list holds
        (``data[]`` of ``GET /boxes``, named for none: ``page_lists``)."""
        return ctx.cache.kinds_listed_by(api) | ctx.cache.paged_kinds(api.key)

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
                if reads(api) and ctx.found[value.index].hint in ctx.new_kinds():
                    continue  # a thing said new ("a box B") is no thing to look up: it earns nothing
                tally.used.add(value.index)  # date spares a missing input, it earns nothing
                found = ctx.found[value.index]
                tally.kind_fit += ctx.cache.hint_fit(found.hint, api, found.qualifier)
        tally.used.update(created_names(ctx.found, api, tally.used))
        fed, unfed, optional_fed = False, 0, False
        for slot in open_inputs(ctx, api):
            source = fed_input(ctx, apis, index, slot, tally.used)
            if source is None and not slot.required:
                unfed += 1  # an optional input a chain may feed (``steps.open_inputs``)
                continue
            optional_fed = optional_fed or (source is not None and not slot.required)
            if source is None:
                tally.missing.append(f"{api.key}.{slot.name}")
                tally.choice_only += 1 if slot.enum else 0
                tally.composed += 1 if composed(api, slot) else 0
                inputs.append(StepInput(slot.name, slot.table, "user", domain_type=slot.domain_type))
                continue
            fed = True
            picked_id = source.pick_value is not None or source.pick_first  # an item picked from a list
            tally.attribute_hops += 0 if takes_an_identifier(slot.name, slot.domain_type) or picked_id else 1
            tally.nested_hops += 1 if nested_list(source.from_field or "") else 0
            producer, field, kinds = apis[source.from_step or 0], source.from_field or "", self._kinds(ctx)
            tally.other_kind += names_another_kind(producer, field, api, slot.name, kinds)
            tally.rereads += not picked_id and rereads_listed(producer, field, api, slot.name, kinds)
            inputs.append(source)
            tally.confidence *= source.confidence
            tally.edge_penalty += self.weights.edge * (1.0 - source.confidence)
            if source.table is not None:
                inputs.extend(more_columns(ctx, apis, index, source))
        # optional inputs of things, one fed: the others name the thing another way (a file or a message)
        tally.unfed += 0 if optional_fed else unfed
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
        listed = (
            set() if not ctx.newest or newest_fed(ctx, target) else self._lists_of(ctx, target) & ctx.newest
        )
        newest = tally.newest | listed
        # the newest one of a kind a step before lists is picked there: the target listing that kind again is
        # no list asked for ("a link to the last message": not the message's replies)
        picked = {k for a in apis[:-1] for k in self._lists_of(ctx, a)} & ctx.newest if ctx.newest else set()
        return {
            "target": w.target
            * (
                self.rel(ctx, target.key)
                + self.inherited(ctx, target.key)
                + ctx.relevance.nearness(target.key)
            ),
            "kind": w.kind * kind_fit(ctx, target.key, w),
            "unasked": -w.unasked * unasked(ctx, target),
            "ids_only": -w.ids_only * ids_only(target),
            "union": w.union * ctx.relevance.share(covered),
            "others": w.others * sum(self.rel(ctx, a.key) for a in apis[:-1]),
            "steps": -w.step * (len(apis) - 1),
            "edges": -tally.edge_penalty,
            "attribute": -w.attribute * tally.attribute_hops,
            "nested": -w.nested * tally.nested_hops,
            "other_kind": -w.other_kind * tally.other_kind,
            "rereads": -w.rereads * tally.rereads,
            "missing": -w.missing * (len(tally.missing) - tally.choice_only - tally.composed)
            - w.choice * tally.choice_only,
            "used": w.used_value * (len(tally.used) + tally.choices),
            "wider": -w.unused_name * wider_than_said(ctx, target),
            "unused": -w.unused_subject * (len(subjects - tally.used - names) + len(unknown_known))
            - w.unused_name * len(names - tally.used),
            "writes": -w.write * writes,
            "replace": -w.replace * self.replaces(ctx, target),
            "unfed": -w.unfed * tally.unfed,
            "newest": w.used_value * len(newest) - w.unused_name * len(ctx.newest - newest),
            "lists": w.lists * self._listing(ctx, target, picked),
            "hint": w.hint * tally.kind_fit,
            "entry": w.entry * entry_fit(ctx, apis[0]) if len(apis) > 1 and not relists(ctx, apis) else 0.0,
            "idle": -w.idle * adds_nothing(ctx, apis) * (not nearer_in_meaning(ctx, apis)),
        }
