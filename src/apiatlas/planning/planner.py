"""Plans chains: targets from search, paths back through the dependency graph to values the request states."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.language.actions import orders_write_in
from apiatlas.language.casing import as_read
from apiatlas.language.catalog import singular
from apiatlas.language.inflected import unglued
from apiatlas.language.routes import said_role
from apiatlas.language.words import NAME_LINKS
from apiatlas.planning import values as v
from apiatlas.planning.actions import RequestAction, asks, split_actions
from apiatlas.planning.calibrated import SHIPPED_PLAN_CONFIDENCE
from apiatlas.planning.combined import combined_plan
from apiatlas.planning.confidence import PlanConfidenceModel, judge
from apiatlas.planning.context import PlanContext
from apiatlas.planning.coordination import action_apart, coordinated_things, things_apart
from apiatlas.planning.echoes import from_sources
from apiatlas.planning.entities import tie_note
from apiatlas.planning.expressions import computed
from apiatlas.planning.fit import kind_fit
from apiatlas.planning.intent import (
    asked_kind,
    asks_who,
    counted,
    kinds_read_across,
    named_kinds,
)
from apiatlas.planning.kind_tails import tails_across
from apiatlas.planning.kind_verbs import kind_verbs, noun_creates
from apiatlas.planning.kind_writes import KindWrites
from apiatlas.planning.kinds_across import as_catalog_stems, foreign_kinds, hinted_across, named_across
from apiatlas.planning.model import PlanResult, PlanValue
from apiatlas.planning.pointing import bare_change, placed, refers_back
from apiatlas.planning.relevance import (
    Relevance,
    Terms,
    known_words,
    plain_verbs,
    read_across,
    request_words,
    search_text,
    verbs_across,
)
from apiatlas.planning.retrieval import PlanSearch
from apiatlas.planning.said_body import body_planned
from apiatlas.planning.said_names import bare_names, newest_things, said_names
from apiatlas.planning.scoring import ChainScoring
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.planning.steps import asked_fed, required_inputs, taking_ids
from apiatlas.planning.twin_routes import own_reads
from apiatlas.planning.twins import plain_twins
from apiatlas.planning.unknown_verbs import unknown_verb, verb_unnamed
from apiatlas.planning.weights import PlanLimits, Weights
from apiatlas.planning.write_choice import collection_write, reads, said_new, says_every, write_targets
from apiatlas.search.hybrid import HybridSearch
from apiatlas.snapshot import CatalogReader

__all__ = ["PlanLimits", "Planner", "Weights", "reads_only"]  # the bounds and weights live in weights.py

_ACRONYM = re.compile(r"([A-Z]{2,6})(?:-\d{1,4})?")  # "SMS", "COVID-19"
_LETTERS = re.compile(r"[^\W\d_]+", re.UNICODE)  # the words of a request, letters only


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
        self._kind_writes = KindWrites(snapshot, self.cache, self.limits.targets)  # writes by named kinds
        self.search = PlanSearch(snapshot, search)
        self.scoring = ChainScoring(self.weights, self.limits, allow)
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
        head, _, rest = value.text.partition(" ")  # "the TLS vault": an acronym before the kind it qualifies
        qualified = bool(value.hint) and rest.replace(" ", "").lower() in (value.hint, value.hint + "s")
        said = head if qualified else value.text
        acronym = _ACRONYM.fullmatch(said)
        if acronym is None or said_role(request, said):
            return False  # "from Ethereum to USD": a name said for an end of a route is a value
        if said not in self._terms_seen:  # "COVID-19" where the cards say "COVID-19 statistics"
            self._terms_seen[said] = self.search.uses_term(acronym.group(1))
        return self._terms_seen[said]

    def _term_dropped(self, value: v.ExtractedValue) -> v.ExtractedValue:
        """A name opening with catalog terms and a link ("COVID-19 in Russia", "Acme ID of Jane Roe"): the
        name after the link; a name closing with a link and catalog terms ("Jane Roe on Acme"): the name
        before it. The catalog terms are words of the request, not of the value."""
        if value.kind != v.ENTITY:
            return value
        said = value.text.split(" ")
        link = [w.lower() in NAME_LINKS for w in said]
        for at in range(1, len(said) - 1):  # a run of links goes with the terms ("Acme of the Jane")
            if not link[at] or link[at - 1]:
                continue
            end = next((i for i in range(at, len(said)) if not link[i]), len(said))
            head, name = " ".join(said[:at]), " ".join(said[end:])
            if name and self._catalog_term(replace(value, text=head, value=head)):
                return replace(value, value=name, text=name)
        for at in range(len(said) - 2, 0, -1):  # "Jane Roe on the Acme"
            if not link[at] or link[at + 1]:
                continue
            start = next((i for i in range(at, -1, -1) if not link[i]), -1) + 1
            name, tail = " ".join(said[:start]), " ".join(said[at + 1 :])
            if name and self._catalog_term(replace(value, text=tail, value=tail)):
                return replace(value, value=name, text=name)
        return value

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
        judged last (``confidence.judge``). A text written said unquoted: ``said_body.body_planned``."""
        request = unglued(request)  # «widget'ы»: "widgets", as the catalog writes the word
        return body_planned(request, lambda said: self._planned(said, target, known), self.search, self.cache)

    def _planned(self, request: str, target: str | None, known: dict[str, Any] | None) -> PlanResult:
        found = v.extract_values(request, self.cache.vocabulary) if request else []
        actions = split_actions(request, found, self._verbs(request)) if request else []
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
            dates = [replace(f, hint=v.ELSEWHERE) for f in found if f.kind in v.DATE_KINDS]
            actions = placed(actions, lambda t: named_kinds(t, [f.text for f in found], self.cache.vocabulary))  # noqa: E501
            before = {id(a): [b.text for b in actions[:n]] for n, a in enumerate(actions)}
            parts: list[tuple[RequestAction, PlanResult]] = []
            for action in actions:  # in order: one pointing back writes to what the one before acts on
                back = refers_back(action.text, before.get(id(action), [])) or (
                    bool(parts) and bare_change(action, found, self.cache.vocabulary)
                )  # "… Change it to X" said without "it": «Поменяй на X»
                ends = [r.chains[0].target for _, r in parts if r.chains]
                pointed = ends[-1] if back and ends else ""

                def one(a: RequestAction, b: bool = back, p: str = pointed) -> PlanResult:
                    return self._plan_action(a.text, None, known, a, dated=dates, back=b, pointed=p)

                parts += action_apart(action, one)
            result = combined_plan(request, parts, self.cache, self.weights.step, self.weights.missing)
        return judge(from_sources(computed(result, self.cache)), self.confidence)

    def _plan_action(
        self, request: str, target: str | None, known: dict[str, Any] | None, action: RequestAction | None,
        meaning: Callable[[], dict[str, float]] = dict, dated: list[v.ExtractedValue] | None = None,
        back: bool = False, pointed: str = "",
    ) -> PlanResult:  # fmt: skip
        """One action's plan: the request read (``_read``), its targets (``_targets``: a write when the
        action orders one and ``allow`` permits it), the paths to each scored (``_ranked``). ``dated``:
        the dates the whole request states, which an action of it stating none takes as its own ("find
        flights … on July 20th. Also, find hotels for those dates"). ``back``: an action of several pointing
        back ("… and check its status"): the best chain to each target is kept (``ChainScoring.ranked``);
        ``pointed``: the API the action before it ends at, to whose kind's writes one with no kind of its
        own may end ("… and delete it": ``KindWrites.of_kinds``)."""
        started = time.perf_counter()
        ctx = self._read(request, known, meaning)
        if dated and not any(f.kind in v.DATE_KINDS for f in ctx.found):
            ctx.found.extend(dated)
        ctx.verb = action.verb if action is not None and action.writes else ""
        ctx.gives = action is not None and action.gives
        ctx.pointed = pointed
        values = [PlanValue(kind=f.kind, value=f.value, text=f.text, hint=f.hint) for f in ctx.found]
        targets = self._targets(ctx, target)
        if isinstance(targets, tuple):
            reason, message = targets
            return PlanResult(
                status="error", reason=reason, message=message, request=request, values=values,
                elapsed_ms=_ms(started),
            )  # fmt: skip
        chains = self.scoring.ranked(ctx, targets, every_target=back)
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
        read = as_read(request)  # «КАНАЛА» is read across as «канала» is (``language.casing``)
        kinds = foreign_kinds(self.search, vocabulary, read, found)  # «покупателя»: buyer
        found = hinted_across(request, found, kinds)
        across = named_across(self.search, vocabulary, _LETTERS.findall(read), kinds)  # «канала general»
        across = {**across, **tails_across(self.cache.kind_parts, request)}  # "… persistent volume … claim X"
        found += said_names(request, vocabulary, found, self.known, across)
        found += bare_names(request, vocabulary, found, self.known)
        found = verb_unnamed(request, found, vocabulary.kind_set, self.search.uses_term)  # no "Quarantine …"
        stated = [f.text for f in found]
        text = plain_verbs(self.search.corrected(request, stated, self.known), vocabulary) if request else ""
        words = request_words(text, stated, vocabulary) if request else []
        across = self.search.read_across([w.word for w in words]) if words else {}
        words = read_across(read_across(words, across), as_catalog_stems({}, kinds))
        words = verbs_across(words)  # «закрепи» covers what "pin" does
        if len(self._api_terms) > SnapshotCache.MAX_ITEMS:
            self._api_terms.clear()
        ranked_apis = self.search.ranked(search_text(words)) if words else []
        relevance = Relevance(
            words, ranked_apis, self.search.titles(), self.search.rarity, terms_cache=self._api_terms,
            meaning=meaning, meaning_weight=self.weights.meaning,
        )  # fmt: skip
        read = kinds_read_across(text, across, vocabulary.kind_set)
        kind = asked_kind(read, stated, vocabulary, head_last=read == text)  # «журнал заказов»: head first
        plural = any(w.word.lower() != kind and singular(w.word) == kind for w in words)
        return PlanContext(
            self.cache, relevance, found, dict(known or {}), words=[w.word for w in words],
            kind=kind, plural=plural, who=asks_who(text), counted=counted(text, stated),
            request=request, newest=self._newest(request), bridged=frozenset(across.values()),
            every=says_every(_LETTERS.findall(request)), foreign=kinds,
        )  # fmt: skip

    def _verbs(self, request: str) -> Callable[[], frozenset[str]]:
        """The verbs the catalog's writes say, the kinds it creates the request says as verbs, and a verb
        neither the language nor the catalog knows opening it before a thing named (``unknown_verb``)."""
        kinds = self.cache.vocabulary.kind_set
        said = kind_verbs(request, self.cache.creates(), self.cache.api, kinds)
        if unknown := unknown_verb(request, kinds, self.search.uses_term):  # "Cordon node worker-5"
            said = said | {unknown}
        return (lambda: self.cache.write_verbs() | said) if said else self.cache.write_verbs

    def _newest(self, request: str) -> frozenset[str]:
        """The kinds of thing the request asks the newest of (``said_names.newest_things``) a list holds."""
        asked = newest_things(request)  # a list named for them, or a page of one (``page_lists``)
        held = (self.cache.listed_items().keys() | self.cache.page_lists().keys()) if asked else set()
        if any(not a.isascii() for a in asked - held):  # «последнее сообщение»: the list the word names
            asked = asked | set(self.search.kinds_across(sorted(asked - held), held).values())
        return asked & held

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
        near = sorted(k for k, d in distance.items() if d == 1)
        direct = set(self._taking_ids(ctx))
        listed = self.cache.listed_items() if ctx.newest or self.cache.vocabulary.named_inputs else {}
        kinds = ctx.newest | ctx.said_kinds(listed)
        pages = self.cache.page_lists() if ctx.newest else {}
        listing = sorted({k for kind in kinds for k in listed.get(kind, pages.get(kind, ()))})  # their lists
        asked = asked_fed(ctx, self.cache)
        pool = dict.fromkeys(
            [*sorted(direct), *ctx.relevance.hits(), *near[: self.limits.near_targets], *listing, *asked]
        )  # and the lists of the things the request asks the newest of ("show the recent messages")
        writes = self.allow is not reads_only  # a planner that may not write reads no kind's writes
        created = self.cache.creates().get(ctx.verb, []) if ctx.verb else []  # "Refund the latest …"
        kinded = created or self._kind_writes.of_kinds(ctx, writes) if ctx.verb else []
        members = self._kind_writes.of_members(ctx, writes) if ctx.verb else []
        ctx.members = frozenset(members)
        if ctx.verb and ctx.every:  # "… all the servers …": the write done to the whole collection at once
            ctx.collective = {c: k for k in [*pool, *kinded] if (c := collection_write(k))}
        hits = [k for k in [*pool, *kinded, *members, *ctx.collective] if self.scoring.readable(ctx, k)]
        if ctx.verb and not ctx.every:  # no "all": a write to one item, not to the collection it is in
            hits = [k for k in hits if k not in self.cache.item_collections()] or hits
        hits = self.scoring.partials(ctx, hits) if ctx.verb else hits  # a PATCH beside a whole replacement
        hits = own_reads(hits, ctx.api)  # not a read under a parent its own route filters by
        hits = plain_twins(hits, self.cache.namespaces(), ctx.words)  # ``ns.a.b`` beside ``a.b``: the plain
        if ctx.verb:  # an action ordering a write ends at one, when the caller may write
            stated = {h for f in ctx.found if (h := f.hint) and not said_new(ctx.request, h)}
            hits = write_targets(
                hits, ctx.api, ctx.verb, ctx.words, of_kinds=set(kinded), members=set(members), stated=stated,
                gives=ctx.gives,
            )  # fmt: skip
            hits = noun_creates(hits, ctx.verb)  # "Remind me …": the create of a reminder
        elif asks(ctx.request) or not orders_write_in(re.findall(r"\w+", ctx.request.lower())):
            hits = [k for k in hits if reads(ctx.api(k))] or hits  # none ordered: a read ("Who is in …")
        if ctx.who and not ctx.kind:  # ``kind_fit`` reads the kinds each one lists: read them together
            self.cache.read_listed_kinds(hits)
        targets = sorted(
            hits,
            key=lambda k: (
                -self.scoring.rel(ctx, k)
                - self.scoring.inherited(ctx, k)
                - 0.3 * (distance.get(k, 9) <= 1 or k in direct or k in listing)
                - self.weights.kind * kind_fit(ctx, k, self.weights)
                + self.weights.replace * self.scoring.replaces(ctx, ctx.api(k)),  # type: ignore[arg-type]
                k,
            ),
        )[: self.limits.targets]
        targets += [k for k in members if k in hits and k not in targets]  # few; their words say little
        if not targets:
            return ReasonCode.NO_MATCH, "no API matches the request; rephrase it or name the target API"
        return targets

    def _taking_ids(self, ctx: PlanContext) -> list[str]:
        """APIs a stated opaque id fills a required input of (``steps.taking_ids``), that a chain may use."""
        if self._inputs is None:
            self._inputs = required_inputs(self.cache)
        return [k for k in taking_ids(ctx, self._inputs) if self.scoring.readable(ctx, k)]


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
