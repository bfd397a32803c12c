"""An input fed from a field that only echoes what its step was given is fed from where that came from.

A step given ``product_id`` by a search whose output rows carry ``product_id`` again (the offers of the
product) hands back its own input: a later step taking ``product_id`` from it reads the same value, and
reads it straight from the step that found it — the call that returned it first, which does not depend on
the echoing step's answer (an empty list of offers leaves no id to read the reviews with).
"""

from __future__ import annotations

from apiatlas.planning.lookups import OWN_ID_FIELDS
from apiatlas.planning.model import CandidateChain, InputSource, PlanResult


def from_sources(result: PlanResult) -> PlanResult:
    """Each chain of the plan (and of its parts) with echoed fields read at their source (``sourced``)."""
    result.chains = [sourced(chain) for chain in result.chains]
    for part in result.parts or []:
        part.chains = [sourced(chain) for chain in part.chains]
    return result


def sourced(chain: CandidateChain) -> CandidateChain:
    """``chain`` with every input read from an earlier step's field named as that step's own input fed
    from a step before it (the field echoes the input) read from that step's field instead."""
    for step in chain.steps:
        step.inputs = [_at_source(chain, source) for source in step.inputs]
    return chain


def _at_source(chain: CandidateChain, source: InputSource) -> InputSource:
    if source.origin != "step" or source.from_step is None or source.table is not None:
        return source
    field = (source.from_field or "").rsplit(".", 1)[-1].removesuffix("[]")
    given = next(
        (
            s
            for s in chain.steps[source.from_step].inputs
            if s.name == field and s.origin == "step" and s.from_step is not None and s.table is None
        ),
        None,
    )
    if given is None or field != source.name or source.pick_field or source.template:
        return source
    if field.lower() in OWN_ID_FIELDS and field != source.from_field:
        return source  # "items[].id": each nested row's own id, not the one the step was given
    return source.model_copy(
        update={
            "from_step": given.from_step,
            "from_table": given.from_table,
            "from_field": given.from_field,
            "level": given.level,
            "confidence": given.confidence,
        }
    )
