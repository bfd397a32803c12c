"""Plan confidence: the calibrated probability that a plan's top chain is the right one, and the answer
``NO_CONFIDENT_PLAN`` below the shipped threshold (the candidate chains kept, what is unclear said).

The signals (``PLAN_SIGNALS``) are read from the plan itself — its chains' scores (and whether the top
one is below zero), the request's words the top chain leaves uncovered, how far the top chain leads the
best one ending at another API, whether it takes more steps than the runner-up, the edges it uses, what
it asks the user, the stated values it leaves unused, its target's rank, the request's words in a script
the chain's APIs do not write. A ``PlanConfidenceModel`` (logistic regression over some of them, fitted
on the development cases of the chain sets by ``apiatlas eval plan-confidence``, its threshold chosen
with each catalog left out; shipped in ``planning/calibrated.py``) turns them into the probability.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from pydantic import model_validator

from apiatlas.errors import ReasonCode
from apiatlas.planning import values as v
from apiatlas.planning.model import CandidateChain, PlanResult
from apiatlas.search.confidence import LogisticModel
from apiatlas.search.scripts import script_of

MARGIN_CAP = 2.0  # a plan with one candidate chain: its lead over "the next" is taken as this
FEW_COVERED = 0.75  # ``unclear`` says an action's chain covers few of its words below this share
PLAN_SIGNALS: dict[str, str] = {
    "score": "the top chain's score (of each action's top chain, the lowest)",
    "below_zero": "1 when the top chain's score is below zero (of each action's, the lowest): what it asks "
    "or guesses (inputs to ask, loose edges, steps no word calls for) outweighs what the request's words "
    "match; a sign, free of the catalog's score scale",
    "margin": "top chain's score - the second's, capped at MARGIN_CAP (of each action, the lowest)",
    "lead_other": "top chain's score - the best one's ending at another API, capped at MARGIN_CAP "
    "(MARGIN_CAP when all end at its API; of each action, the lowest): how far its API leads, not its route",
    "longer": "top chain's steps - the second chain's (0 with one chain; of each action, the highest)",
    "covered": "share of the request words the top chain's steps cover (of each action, the lowest)",
    "uncovered": "request words the top chain's steps do not cover, each by the strength it lacks (of each "
    "action, the highest): a count, not a share, so that a short request's one generic verb ('show the "
    "coupon X') weighs as one word left over, and a long request's five as five (a request without words, "
    "an id alone, leaves one: its chain rests on no word)",
    "edges": "product of the confidences of the field mappings the top chain uses",
    "steps": "number of steps of the top chain",
    "asks": "inputs of the top chain no stated value or step fills (ask the user)",
    "actions": "number of actions of the request",
    "unused": "share of the values the request states that no step of the top chain takes or picks by",
    "off_target": "share of the actions whose top chain ends elsewhere than their best-ranked target",
    "rank": "rank of the top chain's target among its action's ranked targets (of each action, the highest)",
    "tie": "1 when the two best chains tie (the plan says the request may mean either)",
    "typed": "share of the stated values the top chain takes whose form says their kind (FREE_FORM: not)",
    "alien": "share of the request's words in a script that no key or title of the top chain's steps writes",
}
# stated values whose form does not say what they are: a name or title, a name said beside a kind, a
# number; the others (dates, account numbers, INN, ISIN, document numbers, opaque ids, e-mails, a person's
# name parts) fill inputs of their own kind only, so a chain taking them is seldom a guess
FREE_FORM = frozenset({v.ENTITY, v.NAME, v.NUMBER})
_LETTERS = re.compile(r"[^\W\d_]+", re.UNICODE)  # the words of a text, letters only


class PlanConfidenceModel(LogisticModel):
    """A ``LogisticModel`` of ``PLAN_SIGNALS``; below ``threshold`` the plan answers ``NO_CONFIDENT_PLAN``.
    An empty ``signals`` list is always confident (p = 1)."""

    fitted_on: str = ""

    @model_validator(mode="after")
    def _same_lengths(self) -> PlanConfidenceModel:
        self._check_signals(PLAN_SIGNALS, "plan")
        return self


def _margin(result: PlanResult) -> float:
    if len(result.chains) < 2:
        return MARGIN_CAP
    return max(0.0, min(MARGIN_CAP, result.chains[0].score - result.chains[1].score))


def _lead_other(result: PlanResult) -> float:
    top = result.chains[0]
    others = [c.score for c in result.chains[1:] if c.target != top.target]
    return max(0.0, min(MARGIN_CAP, top.score - max(others))) if others else MARGIN_CAP


def _longer(result: PlanResult) -> float:
    return float(len(result.chains[0].steps) - len(result.chains[1].steps)) if len(result.chains) > 1 else 0.0


def _used(chain: CandidateChain) -> set[str]:
    """The stated values the chain passes to an input, or picks an item of a list by (the channel named)."""
    passed = {str(i.value) for s in chain.steps for i in s.inputs if i.origin in ("request", "known")}
    picked = {str(i.pick_value) for s in chain.steps for i in s.inputs if i.pick_field and i.pick_value}
    return passed | picked


def _rank(result: PlanResult) -> float:
    target = result.chains[0].target
    return float(result.targets.index(target) if target in result.targets else len(result.targets))


def _word_scripts(text: str) -> list[set[str]]:
    """The scripts of each word of ``text`` with a letter, each word's letters judged one by one (a
    Japanese phrase mixes kana and kanji, unbroken by spaces), in their compatibility form (full-width
    Latin is Latin; ½ and ² hold no letter)."""
    words = [unicodedata.normalize("NFKC", w) for w in _LETTERS.findall(text)]
    return [found for w in words if (found := {s for ch in w if (s := script_of(ch))})]


def _alien(result: PlanResult, chain: CandidateChain) -> float:
    said = _word_scripts(result.request)
    written = {x for s in chain.steps for w in _word_scripts(f"{s.api} {s.title}") for x in w}
    return sum(1 for x in said if not x & written) / len(said) if said else 0.0


def _typed(result: PlanResult, chain: CandidateChain) -> float:
    kinds = {str(x.value): x.kind for x in result.values}
    taken = [kinds[u] for u in _used(chain) if u in kinds]
    return sum(1 for k in taken if k not in FREE_FORM) / len(taken) if taken else 0.0


def plan_signals(result: PlanResult) -> dict[str, float]:
    """The signals of ``result``'s top chain (all zero when there is none)."""
    if not result.chains:
        return dict.fromkeys(PLAN_SIGNALS, 0.0)
    best = result.chains[0]
    actions = [p for p in result.parts if p.chains] or [result]
    used = _used(best)
    stated = [str(x.value) for x in result.values]
    score = min(p.chains[0].score for p in actions)
    return {
        "score": score,
        "below_zero": 1.0 if score < 0 else 0.0,
        "margin": min(_margin(p) for p in actions),
        "lead_other": min(_lead_other(p) for p in actions),
        "longer": max(_longer(p) for p in actions),
        "covered": min(p.chains[0].covered for p in actions),
        "uncovered": max(p.chains[0].uncovered for p in actions),
        "edges": best.confidence,
        "steps": float(len(best.steps)),
        "asks": float(sum(1 for s in best.steps for i in s.inputs if i.origin == "user")),
        "actions": float(max(1, len(result.parts))),
        "unused": sum(1 for x in stated if x not in used) / len(stated) if stated else 0.0,
        "off_target": sum(bool(p.targets) and p.chains[0].target != p.targets[0] for p in actions)
        / len(actions),
        "tie": 1.0 if any("almost the same" in w or "does not say" in w for w in best.why) else 0.0,
        "typed": _typed(result, best),
        "rank": max(_rank(p) for p in actions),
        "alien": _alien(result, best),
    }


def unclear(result: PlanResult, signals: Mapping[str, float]) -> list[str]:
    """What the plan is unsure of, in words the caller can act on (ask the user, pick a chain)."""
    out = []
    best = result.chains[0]
    for p in [p for p in result.parts if p.chains] or [result]:
        second = f"chain 2 ({' → '.join(p.chains[1].api_keys)})" if len(p.chains) > 1 else ""
        lead = p.chains[0].score - p.chains[1].score if second else MARGIN_CAP
        if lead < MARGIN_CAP / 4:  # of several actions, chain 1 is the one the plan takes: it may score less
            out.append(
                f"{p.request!r}: {second} scores {abs(lead):.2f} {'above' if lead < 0 else 'below'} chain 1"
            )
        if _longer(p) > 0:
            out.append(f"{p.request!r}: chain 1 takes {_longer(p):.0f} step(s) more than {second}")
        if p.chains[0].covered < FEW_COVERED:  # ``covered``: words no step matches
            out.append(f"{p.request!r}: chain 1's steps cover {p.chains[0].covered:.0%} of its words")
        if p.chains[0].score < 0:  # ``below_zero``: of several actions, the one whose chain is below zero
            out.append(
                f"{p.request!r}: chain 1 scores {p.chains[0].score:.2f}, below zero: what it asks or guesses "
                "outweighs what the words match"
            )
    unused = [str(x.text) for x in result.values if str(x.value) not in _used(best)]
    if unused:
        out.append("stated values no step takes: " + ", ".join(repr(u) for u in unused))
    if best.missing:
        out.append("inputs to ask the user: " + ", ".join(best.missing))
    loose = [
        f"{s.api}.{i.name}" for s in best.steps for i in s.inputs if i.origin == "step" and i.confidence < 0.9
    ]
    if loose:
        out.append("inputs fed by loosely matched fields: " + ", ".join(loose))
    if signals.get("off_target", 0.0) > 0:
        out.append("the top chain ends at an API other than the best-matching one")
    return out or ["the request's words match the chain's APIs weakly"]


def judge(result: PlanResult, model: PlanConfidenceModel | None) -> PlanResult:
    """Set ``result.confidence``; below the model's threshold say what is unclear, and a plan that
    would answer ``OK`` answers ``NO_CONFIDENT_PLAN`` (status partial, the chains kept as candidates).
    A plan already partial keeps its reason (``MISSING_REQUIRED_INPUT``: the caller asks the user
    anyway), with the confidence and ``unclear`` beside it."""
    if model is None or not result.chains:
        return result
    signals = plan_signals(result)
    p = model.probability(signals)
    result.confidence = round(p, 4)
    if p >= model.threshold:  # the probability itself, as the threshold was fitted: not its rounding
        return result
    result.unclear = unclear(result, signals)
    low = f"no confident plan (p={_below(p, model.threshold)})"
    if result.reason is ReasonCode.OK:
        result.status, result.reason = "partial", ReasonCode.NO_CONFIDENT_PLAN
        result.message = f"{low}; candidates: {result.message}"
    else:
        result.message = f"{result.message}; {low}"
    return result


def _below(p: float, threshold: float) -> str:
    """``p < threshold`` with two decimals, or as many more (up to six) as it takes them to differ."""
    for digits in range(2, 7):
        shown, bound = f"{p:.{digits}f}", f"{threshold:.{digits}f}"
        if shown != bound:
            break
    return f"{shown} < {bound}"
