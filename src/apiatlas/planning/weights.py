"""The planner's bounds on its work and the weights of a chain's score (see docs/planning.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlanLimits:
    """Bounds on the planner's work (it answers in milliseconds on thousands of APIs)."""

    max_steps: int = 4
    targets: int = 5  # search hits tried as the last step
    fan_in: tuple[int, ...] = (5, 4, 3)  # producers followed per step, by distance from the target
    max_paths: int = 60  # paths scored per target
    near_targets: int = 60  # APIs fed by an entry point taking a stated value, tried as targets too
    chains: int = 5  # candidate chains returned


@dataclass(frozen=True)
class Weights:
    """How a chain is scored (tuned on the development sets; see ``apiatlas eval chains``)."""

    target: float = 1.5
    union: float = 1.0
    others: float = 0.0
    step: float = 0.2
    edge: float = 0.2
    missing: float = 1.2
    choice: float = 0.3
    used_value: float = 0.4
    unused_subject: float = 2.0  # a named value (name, title, number) or known value no step takes
    unfed: float = 0.3  # an optional input a chain may feed (``steps.open_inputs``) that no step feeds
    unused_name: float = 0.5  # a name said beside a kind ("node n-1", ``lookups``) no step takes or picks by
    write: float = 0.5
    lists: float = 0.5  # the target's output is a list named for a thing the request says ("the messages")
    replace: float = 0.3  # a PUT whose path a PATCH serves, the request saying no word of replacing it
    hint: float = 0.8
    entry: float = 0.5  # the entry point covering the request's last words (what the data belongs to)
    kind: float = 1.5  # the target is about the kind of thing asked about (a person for "his birthday")
    unasked: float = 0.5  # the target's path ends in a part the request does not name (/similar)
    ids_only: float = 0.6  # a last step that returns only identifiers answers nothing by itself
    people: float = 0.8  # asking who: a target listing people, share of a kind match (dev plateau 0.4-2.5)
    listed: float = 0.8  # a kind asked in the plural: a target listing them (dev plateau 0.4-1.5)
    one_counted: float = 0.6  # counting things ("how many seasons"): a target taking one (dev plateau 0.3-2)
    attribute: float = 0.3  # a hop on a shared attribute (a branch code, an ISIN), not an identifier
    other_kind: float = 0.5  # an item's key (``/boxes/{name}``) fed by the same key of another kind of thing
    rereads: float = 0.3  # a read of each item a list of those things returned (``GET /boxes/{name}`` on)
    nested: float = 0.5  # a hop reading a list inside each row of a list (a match's ``known_for[]`` movies)
    # the target's nearness in meaning to the whole request (the snapshot's embedding model: its cosine over
    # the spread of the 40 nearest), added to its relevance in the chain's score (dev: docs/planning.md)
    meaning: float = 0.25
    idle: float = 0.1  # a last step covering no request word the steps before it don't (dev plateau 0.1-0.2)
