"""Dates written in English words: "August 15, 2024", "July 20th", "15 August 2024", "December 15".
A date said without its year takes the year of the nearest date of the request that says one (in
"departs on December 1, 2024 and returns December 15" both are of 2024); with none, it stays without
a year (``--MM-DD``, ISO 8601's reduced form)."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass

from apiatlas.language.words import MONTHS_EN

_MONTH = "(" + "|".join(m.capitalize() for m in MONTHS_EN) + ")"  # "may" in lower case is a verb
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:\s*,\s*|\s+)(\d{4})\b"
# "August 15, 2024", "August 15th", "July 19,2024" / "15 August 2024", "15th of August"
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!:)(?:{_YEAR})?")
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b(?:{_YEAR})?")


@dataclass(frozen=True)
class EnglishDate:
    """One date as written (``text``, at ``start``) and as ISO 8601 (``value``)."""

    value: str
    text: str
    start: int


def english_dates(text: str) -> list[EnglishDate]:
    """Every date the text writes with an English month name and a day, in the order written."""
    found: list[tuple[int, str, int, int, int | None]] = []  # start, text, month, day, year
    taken: list[tuple[int, int]] = []
    for pattern, month_at, day_at in ((_MONTH_DAY, 1, 2), (_DAY_MONTH, 2, 1)):
        for match in pattern.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            month = MONTHS_EN[match.group(month_at).lower()]
            day = int(match.group(day_at))
            year = int(match.group(3)) if match.group(3) else None
            if not 1 <= day <= calendar.monthrange(year or 2024, month)[1]:
                continue
            taken.append((match.start(), match.end()))
            found.append((match.start(), match.group(0), month, day, year))
    found.sort()
    out = []
    for start, said, month, day, year in found:
        if year is None:
            years = [(abs(s - start), y) for s, _, _, _, y in found if y is not None]
            year = min(years)[1] if years else None
        value = f"{year}-{month:02d}-{day:02d}" if year else f"--{month:02d}-{day:02d}"
        out.append(EnglishDate(value, said, start))
    return out
