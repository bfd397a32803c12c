"""plan_chain: ranked call chains for a request, steps ready for execute_chain once user values are filled."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.planning.model import CandidateChain
from apiatlas.server import bounds
from apiatlas.server.navigation import Navigator, not_executable_reason
from apiatlas.server.tools.describe_api import DescribeApiResult
from apiatlas.server.tools.plan_chain import AskUser, PlanChainResult, PlannedChain

if TYPE_CHECKING:  # the planner (and the search it ranks with) loads with the first plan
    from apiatlas.planning.planner import Planner

MAX_CHAINS = 5


def _source_text(chain: CandidateChain) -> list[str]:
    lines = []
    for index, step in enumerate(chain.steps):
        parts = []
        for source in step.inputs:
            name = f"{source.table}.{source.name}" if source.table else source.name
            if source.origin == "step":
                parts.append(
                    f"{name} ← step {source.from_step} {source.from_table}.{source.from_field} "
                    f"({source.level}, {source.confidence:.2f})"
                )
            elif source.origin == "user":
                parts.append(f"{name} ← ask the user")
            else:
                parts.append(f"{name} = {source.value!r} ({source.origin})")
        lines.append(f"{index}. {step.api}: " + ("; ".join(parts) or "no inputs"))
    return lines


def _ask_user(chain: CandidateChain) -> list[AskUser]:
    out = []
    for index, step in enumerate(chain.steps):
        for source in step.inputs:
            if source.origin != "user":
                continue
            fill = (
                f"steps[{index}].args.{source.name}"
                if source.table is None
                else f"steps[{index}].input_tables.{source.table}[0].{source.name}"
            )
            out.append(
                AskUser(
                    step=index, api=step.api, input=source.name, table=source.table,
                    domain_type=source.domain_type, fill=fill,
                )
            )  # fmt: skip
    return out


class ChainPlanning:
    """Answers plan_chain from the navigator's snapshot (a role's view when roles apply)."""

    def __init__(self, navigator: Navigator) -> None:
        self.navigator = navigator
        self.prefix = navigator.prefix
        self._planner: Planner | None = None

    @property
    def planner(self) -> Planner:
        if self._planner is None:
            from apiatlas.planning.planner import Planner

            self._planner = Planner(
                self.navigator.snapshot, allow=self._callable, search=self.navigator.search_engine
            )
        return self._planner

    def _callable(self, api: Api) -> bool:
        """Whether the caller can run ``api`` here: a plan is handed to execute_chain, so a chain through
        an API it would refuse (a write no operator enabled for this role) is not offered."""
        return not_executable_reason(api, self.navigator.writes_enabled(api.key)) is None

    def plan_chain(
        self, request: str, target: str | None, known: dict[str, Any], limit: int = 3
    ) -> PlanChainResult:
        refused = bounds.refused_plan(request, known)  # before any planning, with a bounded echo
        if refused is not None:
            return refused
        if target is not None:
            found = self.navigator.resolve_api(target)
            if isinstance(found, DescribeApiResult):
                return PlanChainResult(
                    status="error", reason=ReasonCode.UNKNOWN_API, request=request,
                    message=f"unknown API {target!r}",
                    next_actions=[f"call {self.prefix}search to find the API that returns the data"],
                )  # fmt: skip
            target = found.key
        if not request.strip() and target is None:
            return PlanChainResult(
                status="error", reason=ReasonCode.INVALID_ARGUMENT, message="give a request or a target API",
            )  # fmt: skip
        plan = self.planner.plan(request, target=target, known=known)
        chains = [
            PlannedChain(
                rank=rank, score=chain.score, confidence=chain.confidence, apis=chain.api_keys,
                entry_point=chain.entry_point, target=chain.target, inputs=_source_text(chain),
                ask_user=_ask_user(chain), steps=chain.chain_steps(known),
            )
            for rank, chain in enumerate(plan.chains[: max(1, min(limit, MAX_CHAINS))], 1)
        ]  # fmt: skip
        result = PlanChainResult(
            status=plan.status, reason=None if plan.reason is ReasonCode.OK else plan.reason,
            message=plan.message, request=request, values=plan.values, chains=chains,
            confidence=plan.confidence, unclear=plan.unclear,
        )  # fmt: skip
        if not chains:
            result.next_actions = [
                f"call {self.prefix}search to find the API, then {self.prefix}plan_chain with target=<API>"
            ]
        elif plan.reason is ReasonCode.NO_CONFIDENT_PLAN:
            result.next_actions = [
                "confirm with the user which chain answers the request (see unclear), or restate it",
                f"then call {self.prefix}execute_chain with that chain's steps",
            ]
        elif chains[0].ask_user:
            asks = ", ".join(f"{a.input} ({a.api})" for a in chains[0].ask_user)
            result.next_actions = [
                f"ask the user for {asks}; put each value where ask_user.fill says",
                f"then call {self.prefix}execute_chain with chains[0].steps",
            ]
        else:
            result.next_actions = [f"call {self.prefix}execute_chain with steps=chains[0].steps"]
        return result
