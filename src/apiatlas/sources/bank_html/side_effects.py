"""Classify an API as read, write or destructive from the verb that starts its action name."""

from __future__ import annotations

import re

from apiatlas.catalog.model import SideEffect

READ_VERBS = frozenset({"find", "get", "check", "brows", "browse", "search", "list"})
DESTRUCTIVE_VERBS = frozenset({"del", "delete", "remove", "purge"})
_VERB = re.compile(r"[A-Za-z][a-z]*")


def api_verb(key: str) -> str:
    """The verb of 'API_<Object>_<Verb...>': 'API_Acc_FindListByListOwnerID' -> 'Find'."""
    parts = [part for part in key.split("_") if part]
    action = parts[2] if len(parts) >= 3 else parts[-1] if parts else ""
    match = _VERB.match(action)
    return match.group(0) if match else ""


def side_effect_of(key: str) -> SideEffect:
    """Find/Get/Check/Brows/Search/List read; Del/Delete/Remove/Purge destroy; any other verb writes."""
    verb = api_verb(key).lower()
    if verb in READ_VERBS:
        return SideEffect.READ
    if verb in DESTRUCTIVE_VERBS:
        return SideEffect.DESTRUCTIVE
    return SideEffect.WRITE
