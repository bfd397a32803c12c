"""Things asked together: "details and offers for X", "the forecast, current weather, and time zone
for Paris" — one verb, several things joined by "and" / commas, one complement after a preposition.
Each thing with the shared complement is an action of its own ("details for X", "offers for X"); the
planner keeps them apart only when their best chains end at different APIs (else it is one thing
said twice, "the name and title of X")."""

from __future__ import annotations

import re
from collections.abc import Callable

from apiatlas.language.actions import ACTION_WORDS, ARTICLES, BEFORE_A_VERB, WORD, orders_write
from apiatlas.language.words import FUNCTION_WORDS, REFERRING_WORDS, fixed_pair_spans
from apiatlas.planning.actions import RequestAction, action_verb
from apiatlas.planning.combined import combined_plan
from apiatlas.planning.model import PlanResult
from apiatlas.planning.snapshot_reads import SnapshotCache

# "A and B", "A, B, and C", "A, B and C" up to a preposition that starts the shared complement
_LIST = re.compile(
    r"^(?P<left>.+?),?\s+and\s+(?P<last>(?:[\w'-]+\s+){0,4}?[\w'-]+)\s+(?P<rest>(?:for|of|about|on|in)\s.+)$",
    re.IGNORECASE,
)
_OBJECT_WORDS = frozenset(("me", "us", "all", "the", "some"))
MAX_THING_WORDS = 4  # a joined thing longer than this is no noun phrase ("… and find hotels near …")


# an opening that asks without a verb: "I need the time zone and the forecast for X", "What are …"
_ASKING_OPENING = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:is|are)|i\s+(?:need|want|would\s+like|'d\s+like))\s+(?!to\b)", re.IGNORECASE
)


def _head(left: str) -> tuple[str, str] | None:
    """The request's opening (its verb and "me"/"us", or a need or question said without a verb) and
    the first thing, or None without either."""
    asking = _ASKING_OPENING.match(left)
    if asking is not None:
        return left[: asking.end()].strip(), left[asking.end() :].strip()
    words = left.split()
    at = 0
    while at < len(words) and words[at].lower().strip(",") in BEFORE_A_VERB:
        at += 1
    if at >= len(words) or words[at].lower() not in ACTION_WORDS:
        return None
    verb_end = at + 1
    while verb_end < len(words) and words[verb_end].lower() in ("me", "us"):
        verb_end += 1
    return " ".join(words[:verb_end]), " ".join(words[verb_end:])


_NEXT_PHRASE = re.compile(r"\s+(?:for|of|about|on|in)\s", re.IGNORECASE)
_PHRASE_OPENERS = ("for", "of", "about", "on", "in", "from", "to", "near", "at", "between")
_NEXT_PHRASE_OWN = re.compile(r"\s(?:" + "|".join(_PHRASE_OPENERS) + r")\s", re.IGNORECASE)


def coordinated_things(request: str, first_phrase: bool = False) -> list[RequestAction]:
    """The request's joined things, each with the opening and the shared complement ("Get me details,
    five reviews, and offers for Sony PlayStation 5." → three actions); [] when it has no such list.
    ``first_phrase``: the shared complement is its first phrase only ("for Paris" of "for Paris for
    the next 3 days": the rest may be one thing's own); [] when it has one phrase only."""
    text, pairs = _bound_pairs(_complement_last(request.strip().rstrip(".?!")))
    if pairs:  # "the terms and conditions of X": one thing; the rest of the text may still list two
        return [_unbound(a, pairs) for a in coordinated_things(text, first_phrase)]
    match = _LIST.match(text)
    if match is None:
        return _said_last(text) or ([] if first_phrase else _own_complements(text))
    if any(w.lower() in ACTION_WORDS for w in WORD.findall(match["last"])[:1]):
        return []
    opened = _head(match["left"])
    if opened is None:
        return []
    head, first = opened
    things = [t.strip() for t in first.split(",") if t.strip()] + [match["last"].strip()]
    if len(things) < 2 or _BETWEEN.search(first) or any(_long(t) or not _noun(t) for t in things):
        return []
    if any(w.lower() in ACTION_WORDS for t in things for w in WORD.findall(t)[:1]):
        return []
    rest = match["rest"]
    if first_phrase:
        cut = _NEXT_PHRASE.search(rest, 4)
        if cut is None:
            return []
        rest = rest[: cut.start()]
    texts = [f"{head} {t} {rest}" for t in things]
    return _actions(texts)


def _bound_pairs(text: str) -> tuple[str, dict[str, str]]:
    """``text`` with each fixed pair it says (``language.words.FIXED_PAIRS``) written as one word
    ("terms-and-conditions"), and each such word -> the pair as written."""
    pairs = {}
    for start, end in reversed(fixed_pair_spans(text)):
        said = text[start:end]
        bound = re.sub(r"\s+", "-", said)
        pairs[bound] = said
        text = text[:start] + bound + text[end:]
    return text, pairs


def _unbound(action: RequestAction, pairs: dict[str, str]) -> RequestAction:
    """``action`` with each fixed pair written back as the request said it."""
    text = action.text
    for bound, said in pairs.items():
        text = text.replace(bound, said)
    return RequestAction(text=text, verb=action.verb, writes=action.writes)


# "flights between London and Paris": the "and" joins the two ends of one thing, not two things
_BETWEEN = re.compile(r"\bbetween\s", re.IGNORECASE)


def _noun(thing: str) -> bool:
    """Whether a joined thing holds a word besides articles ("the 2023" of "the 2023 and 2024 reports"
    holds none: a number of the last thing's noun, not a thing of its own)."""
    return any(w.lower() not in ARTICLES for w in WORD.findall(thing))


def _long(thing: str) -> bool:
    """More words than a noun phrase holds, articles and numbers aside ("the 7 day weather forecast": 3)."""
    return len([w for w in WORD.findall(thing) if w.lower() not in ARTICLES]) > MAX_THING_WORDS


# "For Lisbon, get the time zone, the forecast and the current weather": the complement said first
_FRONTED = re.compile(r"^(?P<phrase>(?:for|of|about|on|in)\s[^,]+),\s+(?P<rest>.+)$", re.IGNORECASE)


def _complement_last(text: str) -> str:
    """``text`` with a complement said before a list of things moved after it, where a list with no
    complement of its own follows ("For X, get A, B and C" → "get A, B and C for X"); else as it was."""
    fronted = _FRONTED.match(text)
    if fronted is None or _LIST.match(fronted["rest"]) or not _head(fronted["rest"]):
        return text
    moved = f"{fronted['rest']} {fronted['phrase'][0].lower()}{fronted['phrase'][1:]}"
    return moved if _LIST.match(moved) else text


# "A for X for the next days and B": one more thing said after the complement, in lower case words
_TRAILING = re.compile(
    r"^(?P<left>.+?)\s+(?P<rest>(?:for|of|about|on|in)\s.+?),?\s+and\s+"
    r"(?P<last>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3})$"
)


def _said_last(text: str) -> list[RequestAction]:
    """ "Fetch the forecast for Berlin for the next 5 days and current weather": the first thing with
    its complement, the last with the complement's first phrase ("for Berlin"); [] when the text has
    no such shape or the last words point back or name an action ("… and show its members")."""
    match = _TRAILING.match(text)
    opened = _head(match["left"]) if match is not None else None
    if match is None or opened is None:
        return []
    head, first = opened
    last = match["last"].split()
    if not first or "," in first or len(first.split()) > MAX_THING_WORDS or _BETWEEN.search(match["rest"]):
        return []
    if last[0] in ACTION_WORDS or last[0] in FUNCTION_WORDS or last[0] in REFERRING_WORDS:
        return []
    rest = match["rest"]
    cut = _NEXT_PHRASE.search(rest, 4)
    texts = [f"{head} {first} {rest}", f"{head} {' '.join(last)} {rest[: cut.start()] if cut else rest}"]
    return _actions(texts)


def _actions(texts: list[str]) -> list[RequestAction]:
    """Each text as an action of its own, with the verb it opens with and whether that orders a write."""
    return [RequestAction(text=t, verb=(verb := action_verb(t)), writes=orders_write(verb)) for t in texts]


# "A in X and B from Y to Z": each thing with a complement of its own
_OWN = re.compile(
    r"^(?P<left>.+?)\s+and\s+(?P<last>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+(?P<rest>(?:"
    + "|".join(_PHRASE_OPENERS)
    + r")\s.+)$",
    re.IGNORECASE,
)


def _own_complements(text: str) -> list[RequestAction]:
    """ "Find eco-friendly hotels in Costa Rica and available flights from New York to Costa Rica": two
    things joined by "and", each with its own complement (the first thing's phrase before "and", the
    last's after it), each asked with the opening ("Find …"); [] when the text has no such shape, a
    thing is longer than a noun phrase, or the last opens with a verb, a function or a referring word."""
    match = _OWN.match(text)
    opened = _head(match["left"]) if match is not None else None
    if match is None or opened is None:
        return []
    head, first = opened
    phrase = _NEXT_PHRASE_OWN.search(first)
    last = match["last"].split()
    if phrase is None or "," in first or len(first[: phrase.start()].split()) > MAX_THING_WORDS:
        return []
    if _BETWEEN.search(first):
        return []
    if last[0].lower() in ACTION_WORDS | FUNCTION_WORDS | REFERRING_WORDS or len(last) > MAX_THING_WORDS:
        return []
    texts = [f"{head} {first}", f"{head} {match['last']} {match['rest']}"]
    return _actions(texts)


def things_apart(
    request: str,
    things: list[RequestAction],
    plan_one: Callable[[RequestAction], PlanResult],
    cache: SnapshotCache,
    step_cost: float,
) -> PlanResult | None:
    """The plan of things asked together, each planned alone (``plan_one``) and joined in the
    request's order (``combined.combined_plan``); None when one has no chain or two end at the same
    API (one thing said twice: the single plan stands)."""
    parts = _apart(things, plan_one)
    return None if parts is None else combined_plan(request, parts, cache, step_cost)


def _apart(
    things: list[RequestAction], plan_one: Callable[[RequestAction], PlanResult]
) -> list[tuple[RequestAction, PlanResult]] | None:
    parts = [(a, plan_one(a)) for a in things]
    ends = [r.chains[0].target for _, r in parts if r.chains]
    if len(ends) < len(parts) or len(set(ends)) < len(ends):
        return None
    return parts


def action_apart(
    action: RequestAction, plan_one: Callable[[RequestAction], PlanResult]
) -> list[tuple[RequestAction, PlanResult]]:
    """One action of a request of several, its things asked together planned apart when their best
    chains end at different APIs ("Find hotels in X and flights from Y to X. I need …"); else the
    action planned whole."""
    things = coordinated_things(action.text)
    return (_apart(things, plan_one) if things else None) or [(action, plan_one(action))]
