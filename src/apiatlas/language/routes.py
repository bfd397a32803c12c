"""The two ends of a route in words: an input named for one ("originSkyId", "destination_id"), a place
the request says after "from" or "to", a route said as one name ("from Los Angeles to Paris")."""

from __future__ import annotations

import re

from apiatlas.language.words import END_PREPOSITIONS, ROUTE_END, ROUTE_START, START_PREPOSITIONS

START, END = "start", "end"
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def route_parts(text: str, name: str) -> list[str]:
    """A name that is a route said as one ("Los Angeles to Paris" after "from"): its two places, else
    [name]."""
    start = "|".join(sorted(START_PREPOSITIONS))
    end = "|".join(sorted(END_PREPOSITIONS))
    match = re.fullmatch(rf"(.+?)\s+(?:{end})\s+(.+)", name)
    if match is None or not re.search(rf"\b(?:{start})\s+{re.escape(name)}", text, re.IGNORECASE):
        return [name]
    return [match.group(1), match.group(2)]


def input_role(name: str) -> str:
    """The end of a route an input is named for: ``originSkyId`` START, ``destination_id`` END, else ""."""
    words = [w.lower() for w in _NAME_WORDS.findall(name)]
    if len(words) < 2:
        return ""
    return START if words[0] in ROUTE_START else END if words[0] in ROUTE_END else ""


def said_role(text: str, said: str) -> str:
    """The end of a route a place the request names is said as: after "from" START, after "to" END
    (at any of the places it is written), else ""."""
    roles = set()
    for match in re.finditer(rf"\b(\w+)\s+{re.escape(said)}\b", text):
        word = match.group(1).lower()
        roles.add(START if word in START_PREPOSITIONS else END if word in END_PREPOSITIONS else "")
    roles.discard("")
    return roles.pop() if len(roles) == 1 else ""
