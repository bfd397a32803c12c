"""Find declared value sources in descriptions: '... (из API_X.Field)' or '(из API_X.Table.Field)'."""

from __future__ import annotations

import re

from apiatlas.catalog.model import DeclaredSource

_FROM = re.compile(r"(?<!\w)из\s+(API_\w+)\.(\w+)(?:\.(\w+))?", re.IGNORECASE)


def declared_sources(field: str, description: str) -> list[DeclaredSource]:
    """Every 'из API_X[.Table].Field' in ``description`` as a source of the consumer ``field``."""
    found: list[DeclaredSource] = []
    for match in _FROM.finditer(description):
        api, first, second = match.group(1), match.group(2), match.group(3)
        table, producer_field = (first, second) if second else (None, first)
        found.append(
            DeclaredSource(field=field, producer_api=api, producer_table=table, producer_field=producer_field)
        )
    return found
