"""The assistant's workflow: the stages in a fixed order over one snapshot and executor, each leaving its
artifact; ``Assistant.ask(question, conversation_id)`` is the one entry point (CLI, POST /ask, a UI)."""

from __future__ import annotations

import time
import uuid
from contextvars import ContextVar
from datetime import date
from pathlib import Path
from typing import Any

import anyio
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from apiatlas.assistant import interpret
from apiatlas.assistant.artifacts import (
    EvidenceRows,
    FinalAnswerPackage,
    Note,
    QueryFrame,
    Resolution,
)
from apiatlas.assistant.compose import compose, unbound_values
from apiatlas.assistant.coverage import Findings, coverage
from apiatlas.assistant.execute import bundle, run_steps, sources_of
from apiatlas.assistant.llm import ModelRoles, RoleLog
from apiatlas.assistant.memory import NAME_KINDS, update_entity, update_terms
from apiatlas.assistant.readings import ObjectWords, several_readings, surface_of
from apiatlas.assistant.resolve import own_words, resolve, topic_of
from apiatlas.assistant.route import Route, plan_route
from apiatlas.assistant.state import ConversationState, ConversationStore, OpenTerm, PremiseRecord
from apiatlas.assistant.terms import TermDefinition, TermReader, apply_terms, catalog_stems, term_notes
from apiatlas.assistant.trace import TraceLog, Turn
from apiatlas.assistant.words import REFERENCES, words_of
from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.executors.base import Executor
from apiatlas.server.app import atlas_core, warm_up_query
from apiatlas.server.config import ServerConfig
from apiatlas.server.tools import AtlasTools
from apiatlas.snapshot import CatalogReader
from apiatlas.snapshot.manifest import serving_of
from apiatlas.text import content_terms, query_terms

_TURN_LOG: ContextVar[RoleLog] = ContextVar("assistant_turn_log")


class AssistantSettings(BaseModel):
    """What a deployment tells the assistant (a YAML file): the as-of date assumed when a question states
    no period (the source's operating day), how many rows an answer lists, and the catalog's definitions
    of informal business terms (``terms``)."""

    model_config = ConfigDict(extra="forbid")

    as_of: date | None = None
    rows_shown: int = 10
    terms: list[TermDefinition] = Field(default_factory=list)

    @classmethod
    def load(cls, path: Path | None) -> AssistantSettings:
        if path is None:
            return cls()
        try:
            return cls.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
        except (OSError, yaml.YAMLError, ValidationError) as exc:
            raise ConfigError(f"{path}: {exc}") from exc

    def as_of_date(self) -> tuple[date, str]:
        if self.as_of is not None:
            return self.as_of, "the configured as-of date"
        return date.today(), "today's date: no as-of date is configured"


class Assistant:
    """Questions in, FinalAnswerPackages out, every stage's artifact traced, the conversation kept."""

    def __init__(
        self, snapshot: CatalogReader, executor: Executor | None, *, state: ConversationStore,
        trace: TraceLog | None = None, settings: AssistantSettings | None = None,
        core: AtlasTools | None = None, roles: ModelRoles | None = None,
    ) -> None:  # fmt: skip
        """``core``: the server's core for a role's view (POST /ask); built over ``snapshot`` otherwise.
        ``roles``: the optional model roles (``assistant.llm.ModelRoles``)."""
        self.snapshot = snapshot
        self.executor = executor
        self.state = state
        self.trace = trace
        self.settings = settings or AssistantSettings()
        config = ServerConfig()
        self.core = core or atlas_core(snapshot, executor, config, config.prefix_for(snapshot.manifest()))
        self.roles = roles
        self._terms: TermReader | None = None
        self._objects: ObjectWords | None = None

    @property
    def terms(self) -> TermReader:
        """The catalog's words a qualitative word could be bound by, and the settings' definitions (read
        from the snapshot once)."""
        if self._terms is None:
            self._terms = TermReader(catalog_stems(self.snapshot), self.settings.terms)
        return self._terms

    def warm(self) -> float:
        """Load the search index and the query encoder before the first question (milliseconds spent)."""
        started = time.perf_counter()
        self.core.navigator.search(warm_up_query(self.snapshot), None, 1)
        self.core.planning.planner.plan(warm_up_query(self.snapshot))
        return (time.perf_counter() - started) * 1000

    @property
    def vocabulary(self) -> Any:
        return self.core.planning.planner.cache.vocabulary

    async def ask(self, question: str, conversation_id: str | None = None) -> Turn:
        """One turn: interpret, resolve, route, run, gather evidence, judge coverage, compose, remember."""
        started = time.perf_counter()
        conversation_id = conversation_id or uuid.uuid4().hex[:12]
        state = self.state.load(conversation_id)
        turn_id = f"{conversation_id}-{state.turns + 1}"
        clock = _Clock()
        has_context = state.active_entity is not None or state.open_ambiguity is not None
        frame = interpret.frame(
            question, turn_id=turn_id, conversation_id=conversation_id, vocabulary=self.vocabulary,
            has_context=has_context, terms=self.terms,
        )  # fmt: skip
        log = RoleLog()
        _TURN_LOG.set(log)
        if self.roles is not None:
            own_terms = frame.informal_terms  # the model may add terms, of the question's own words only
            frame = await anyio.to_thread.run_sync(self.roles.interpret, frame, log)
            added = [t for t in frame.informal_terms if t.lower() in words_of(frame.text)]
            frame.informal_terms = list(dict.fromkeys([*own_terms, *added]))
        clock.lap("interpret")
        resolution = resolve(frame, state, self.vocabulary, self.terms)
        if resolution.term_answer and state.open_term is not None:
            frame = _asked_again(frame, state.open_term)
        clock.lap("resolve")
        turn = await self._answer(frame, resolution, state, clock)
        turn.llm = log.notes
        turn.answer.reasons += [r for r in log.reasons if r not in turn.answer.reasons]
        turn.total_ms = round((time.perf_counter() - started) * 1000, 2)
        self._remember(turn, state)
        return turn

    async def _answer(
        self, frame: QueryFrame, res: Resolution, state: ConversationState, clock: _Clock
    ) -> Turn:
        found = Findings(notes=list(res.notes))
        clarified = res.term_answer or any(b.origin == "clarification" for b in res.bindings)
        if not clarified and own_words(frame) and self._outside(frame):
            found.abstained = True  # asked of the question itself, not of its rewriting with the entity
            return await self._finish(frame, res, None, [], found, clock, state)
        if res.terms:  # a term only the user can define: ask before calling anything
            found.terms = list(res.terms)
            return await self._finish(frame, res, None, [], found, clock, state)
        if res.unbound:
            found.unbound = list(res.unbound)
            return await self._finish(frame, res, None, [], found, clock, state)
        as_of, as_of_source = self.settings.as_of_date()
        route = plan_route(
            self.core.planning.planner, res.rewritten_question, res.known(), as_of, as_of_source
        )
        found.notes += route.notes
        clock.lap("route")
        if (
            route.chain is not None
            and not route.unbound
            and not res.term_answer
            and self._several(frame, res, route)
        ):
            found.terms, found.readings = list(res.terms), len(res.readings)
            return await self._finish(frame, res, route, [], found, clock, state)
        if route.chain is None:
            found.no_chain = True
        elif route.unbound:
            found.unbound = [f"{s.name} ({s.domain_type or 'value'})" for s in route.unbound]
        elif self.executor is None:
            found.no_executor = serving_of(self.snapshot.manifest()).no_executor_reason() or "no executor"
        else:
            return await self._run(frame, res, route, found, clock, state)
        return await self._finish(frame, res, route, [], found, clock, state)

    def _several(self, frame: QueryFrame, res: Resolution, route: Route) -> bool:
        """A word of the question the nearly-tied chains read as different things of the catalog, the
        question naming none of them ("the status of Smith"): left for the user with its readings."""
        if self._objects is None:
            self._objects = ObjectWords(self.snapshot)
        told = {t.stem for t in res.resolved_terms}
        values = {w for c in frame.entity_candidates for w in words_of(str(c.surface))}
        asked = content_terms(query_terms(" ".join(w for w in own_words(frame) if w not in values)))
        stems = [s for s in asked if s not in told]
        weights = self.core.planning.planner.weights
        several = several_readings(stems, route.ranked, self._objects, weights.step + weights.edge)
        if several is None:
            return False
        res.terms, res.readings = [surface_of(frame.text, several[0])], several[1]
        return True

    def _outside(self, frame: QueryFrame) -> bool:
        """The search abstains on the question's words, and again without the values it states (a surname
        is data, not a word of the catalog: a noun and a surname alone may make the search abstain)."""
        words = _without_references(frame, values=False)
        if not self._abstains(words):
            return False
        bare = _without_references(frame, values=True)
        return bare == words or not bare.strip() or self._abstains(bare)

    def _abstains(self, question: str) -> bool:
        """The catalog's search finds nothing confidently: the question is outside the catalog."""
        result = self.core.navigator.search(question, None, 3)
        return result.reason is ReasonCode.NO_CONFIDENT_MATCH

    async def _run(
        self, frame: QueryFrame, res: Resolution, route: Route, found: Findings, clock: _Clock,
        state: ConversationState,
    ) -> Turn:  # fmt: skip
        assert route.chain is not None
        store = self.core.evidence.for_session(frame.conversation_id)
        steps = route.chain.chain_steps({**res.known(), **route.fill})
        runs = []
        if _names_entity(route, frame):  # a name need not be unique: look before going further
            runs = await run_steps(self.core, steps[:1], store)
            first = sources_of(runs, store)
            rows = len(first[0].rows) if first else 0
            if rows > 1:
                found.ambiguous = rows
            elif len(steps) > 1 and runs and runs[0].status == "ok":
                runs = await run_steps(self.core, steps, store)
        else:
            runs = await run_steps(self.core, steps, store)
        if runs and runs[0].status == "empty":
            runs = await self._second_reading(frame, res, route, runs, found, store)
        clock.lap("execute")
        return await self._finish(frame, res, route, runs, found, clock, state, store)

    async def _second_reading(
        self, frame: QueryFrame, res: Resolution, route: Route, runs: list[Any], found: Findings, store: Any
    ) -> list[Any]:  # fmt: skip
        """A name the first step found nothing for, read in its other case ("Козлова": Козлов, Козлова)."""
        assert route.chain is not None
        step = route.chain.steps[0]
        for source in step.inputs:
            candidate = next(
                (c for c in frame.entity_candidates if c.alternatives and str(c.value) == str(source.value)),
                None,
            )
            if source.origin != "request" or candidate is None:
                continue
            for other in candidate.alternatives:
                known = {**res.known(), **route.fill, f"{step.api}.{source.name}": other}
                again = await run_steps(self.core, route.chain.chain_steps(known), store)
                if again and again[0].status != "empty":
                    found.notes.append(
                        Note(
                            reason_code=ReasonCode.OK,
                            message=f"{candidate.value!r} found nothing; read as {other!r}",
                        )
                    )
                    return again
        return runs

    async def _finish(
        self, frame: QueryFrame, res: Resolution, route: Route | None, runs: list[Any], found: Findings,
        clock: _Clock, state: ConversationState, store: Any = None,
    ) -> Turn:  # fmt: skip
        sources = sources_of(runs, store) if store is not None else []
        answer_apis = _answer_apis(runs, found)
        if res.resolved_terms and answer_apis:
            words = [*own_words(frame), *res.rewritten_question.lower().split()]
            as_of = self.settings.as_of_date()[0]
            sources = apply_terms(sources, answer_apis[-1], res.resolved_terms, self.snapshot, words, as_of)
            found.term_notes, found.filtered_out = term_notes(res.resolved_terms, sources, answer_apis[-1])
        evidence = bundle(runs, sources, set(answer_apis), self.settings.rows_shown)
        clock.lap("evidence")
        report = coverage(frame, found, runs, evidence)
        if self.roles is not None:
            report = await anyio.to_thread.run_sync(
                self.roles.criticise, frame, evidence, report, _TURN_LOG.get()
            )
        clock.lap("coverage")
        surface = next((c.surface for c in frame.entity_candidates if c.type in NAME_KINDS), "")
        package = compose(
            frame, report, runs, evidence, answer_apis, self.settings.rows_shown, surface=surface,
            ask_for=", ".join(found.unbound), candidates=found.ambiguous, unclear=found.terms,
            terms=res.resolved_terms, readings=[r.title for r in res.readings],
        )  # fmt: skip
        if self.roles is not None:
            package = await anyio.to_thread.run_sync(self.roles.compose, package, evidence, _TURN_LOG.get())
        _check_bindings(package, sources)
        clock.lap("compose")
        plan = route.plan if route is not None else None
        return Turn(
            turn_id=frame.turn_id, conversation_id=frame.conversation_id, frame=frame, resolution=res,
            plan=plan, runs=runs, evidence=evidence, coverage=report, answer=package,
            latency_ms=clock.laps,
        )  # fmt: skip

    def _remember(self, turn: Turn, state: ConversationState) -> None:
        """The conversation after this turn: its entity, period, open ambiguity, premises, evidence."""
        state.turns += 1
        state.keep_evidence(turn.evidence.sources)
        state.last_evidence_ids = turn.answer.evidence_ids
        update_entity(turn, state, self.snapshot)
        update_terms(turn, state)
        if turn.answer.outcome.answered:
            state.topic = topic_of(turn.resolution.rewritten_question, self.vocabulary)
        if turn.frame.time_scope.kind == "explicit":
            state.time_scope = turn.frame.time_scope
            state.premises.append(
                PremiseRecord(
                    text=f"period {turn.frame.time_scope.text}", status="confirmed", turn_id=turn.turn_id
                )
            )
        for note in turn.coverage.why_partial:
            if note.reason_code is ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY:
                state.premises.append(
                    PremiseRecord(text=note.message, status="assumed", turn_id=turn.turn_id)
                )
        self.state.save(state)
        if self.trace is not None:
            self.trace.append(turn)


def _asked_again(frame: QueryFrame, open_: OpenTerm) -> QueryFrame:
    """This turn (the user's answer, kept verbatim) read as the question it answers: what that named, its
    period and shape (the stages after the resolver look the named things up)."""
    return frame.model_copy(
        update={"entity_candidates": list(open_.candidates), "expected_answer_shape": open_.shape,
                "time_scope": open_.period}  # a date the answer states bounds the term, it is no period
    )  # fmt: skip


def _without_references(frame: QueryFrame, values: bool) -> str:
    """The question without its references back (and, with ``values``, without the values it states)."""
    text = frame.text
    for candidate in frame.entity_candidates if values else []:
        if candidate.type != "reference" and candidate.surface:
            text = text.replace(candidate.surface, " ")
    return " ".join(w for w in text.split() if w.lower().strip("?,.!") not in REFERENCES)


def _names_entity(route: Route, frame: QueryFrame) -> bool:
    """The first step looks a named thing up by a name the question states (names need not be unique)."""
    if route.chain is None or frame.expected_answer_shape != "record":
        return False
    names = {str(c.value) for c in frame.entity_candidates if c.type in NAME_KINDS}
    return any(s.origin == "request" and str(s.value) in names for s in route.chain.steps[0].inputs)


def _answer_apis(runs: list[Any], found: Findings) -> list[str]:
    """The steps whose rows the answer states: the candidates of an ambiguity, else the first and last."""
    ran = [r.api for r in runs if r.evidence_id]
    if not ran:
        return []
    return ran[:1] if found.ambiguous > 1 else list(dict.fromkeys([ran[0], ran[-1]]))


def _check_bindings(package: FinalAnswerPackage, sources: list[EvidenceRows]) -> None:
    """Refuse to state a value no row of its cited evidence holds: the statement becomes 'unknown'."""
    bad = set(unbound_values(package, sources))
    if not bad:
        return
    for statement in package.found:
        if statement.kind == "evidence" and any(value in bad for value in statement.values):
            statement.kind = "unknown"
            statement.values = [value for value in statement.values if value not in bad]
    package.reasons.append(ReasonCode.UNBOUND_CLAIM)


class _Clock:
    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round(self.laps.get(name, 0.0) + (now - self.last) * 1000, 2)
        self.last = now


__all__ = ["Assistant", "AssistantSettings", "Note"]
