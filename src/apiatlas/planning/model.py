"""What a plan is: candidate chains of steps, where every required input comes from, and what is missing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from apiatlas.errors import ReasonCode
from apiatlas.executors.chain import ChainStep, FieldRef, TableMapping

InputOrigin = Literal["known", "request", "step", "user"]

# confidence of an input fed by an edge of each level (see catalog.model.EdgeLevel)
LEVEL_CONFIDENCE = {"declared": 1.0, "name_type": 0.9, "alias": 0.75, "type_only": 0.5}


class InputSource(BaseModel):
    """Where one required (or given) input of a step comes from."""

    name: str = Field(description="parameter name, or input-table column")
    table: str | None = Field(default=None, description="input table of the column; None for a parameter")
    origin: InputOrigin = Field(
        description="known: given by the caller; request: read from the request text; "
        "step: a field of an earlier step's output; user: missing — ask the user"
    )
    value: Any = None
    from_step: int | None = None
    from_table: str | None = None
    from_field: str | None = None
    level: str | None = Field(default=None, description="edge level of a step input")
    confidence: float = 1.0
    required: bool = True
    domain_type: str = ""
    pick_field: str | None = Field(
        default=None,
        description="the earlier step lists items: take the one whose pick_field equals pick_value "
        "(a name the request says: the channel releases)",
    )
    pick_value: Any = None
    pick_first: bool = Field(
        default=False,
        description="the earlier step lists items: take the first (the newest one the request asks for: "
        "the latest message)",
    )
    template: str | None = Field(
        default=None,
        description="the earlier step's value written into this text at '{}' (an arithmetic expression: "
        "'5 * {}' over an exchange rate)",
    )


class PlannedStep(BaseModel):
    """One call of a candidate chain and the source of each of its inputs."""

    api: str
    title: str = ""
    inputs: list[InputSource] = Field(default_factory=list)
    on_many: Literal["all", "first", "stop", "each"] = "all"


class CandidateChain(BaseModel):
    """An ordered list of calls from an entry point to the target, scored."""

    steps: list[PlannedStep]
    score: float
    entry_point: str
    target: str
    confidence: float = Field(description="product of the confidences of the edges the chain uses")
    missing: list[str] = Field(default_factory=list, description="inputs to ask the user for: API.field")
    why: list[str] = Field(default_factory=list)
    covered: float = Field(default=0.0, description="share of the request words its steps cover")
    uncovered: float = Field(
        default=0.0, description="request words its steps do not cover, each by the strength it lacks"
    )

    @property
    def api_keys(self) -> list[str]:
        return [step.api for step in self.steps]

    def chain_steps(self, fill: dict[str, Any] | None = None) -> list[ChainStep]:
        """The ``execute_chain`` steps of this chain; ``fill`` gives values for missing inputs by name."""
        return to_chain_steps(self, fill or {})


class PlanValue(BaseModel):
    """A value found in the request text."""

    kind: str
    value: Any
    text: str
    hint: str = ""


class PlanResult(BaseModel):
    """The planner's answer: candidate chains best first, or why there is none."""

    status: Literal["ok", "partial", "error"] = "ok"
    reason: ReasonCode = ReasonCode.OK
    message: str = ""
    request: str = ""
    targets: list[str] = Field(default_factory=list)
    values: list[PlanValue] = Field(default_factory=list)
    chains: list[CandidateChain] = Field(default_factory=list)
    elapsed_ms: float = 0.0
    parts: list[PlanResult] = Field(
        default_factory=list,
        description="a request of several actions: each action's own plan, in the request's order "
        "(its first chain: the one the joined plan takes for it)",
    )
    confidence: float | None = Field(
        default=None, description="calibrated probability that the top chain is right (planning.confidence)"
    )
    unclear: list[str] = Field(
        default_factory=list, description="NO_CONFIDENT_PLAN: what the plan is unsure of"
    )


def to_chain_steps(chain: CandidateChain, fill: dict[str, Any]) -> list[ChainStep]:
    """Turn a planned chain into ``ChainStep``s: literal args/rows, param and input-table mappings."""
    wanted = {k.lower(): v for k, v in fill.items()}
    out: list[ChainStep] = []
    for step in chain.steps:
        args: dict[str, Any] = {}
        rows: dict[str, dict[str, Any]] = {}
        mapping: dict[str, TableMapping] = {}
        params: dict[str, FieldRef] = {}
        for source in step.inputs:
            value = source.value
            if source.origin == "user":
                key = f"{step.api}.{source.name}".lower()
                if key in wanted:
                    value = wanted[key]
                elif source.name.lower() in wanted:
                    value = wanted[source.name.lower()]
                else:
                    continue
            if source.origin == "step" and source.from_step is not None and source.from_table:
                if source.table is None:
                    params[source.name] = FieldRef(
                        source_step=source.from_step,
                        source_table=source.from_table,
                        column=source.from_field or "",
                        pick_column=source.pick_field,
                        pick_value=source.pick_value,
                        template=source.template,
                    )
                else:
                    found = mapping.get(source.table)
                    if found is None:
                        found = TableMapping(
                            source_step=source.from_step, source_table=source.from_table, column_mapping={}
                        )
                        mapping[source.table] = found
                    found.column_mapping[source.name] = source.from_field or ""
                continue
            if source.table is None:
                args[source.name] = value
            else:
                rows.setdefault(source.table, {})[source.name] = value
        out.append(
            ChainStep(
                api=step.api,
                args=args,
                input_tables={name: [row] for name, row in rows.items()},
                input_table_mapping=mapping,
                param_mapping=params,
                on_many=step.on_many,
            )
        )
    return out
