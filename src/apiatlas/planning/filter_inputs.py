"""Optional inputs a spec declares well: a filter says it is one. ``lookups.wanted`` lets a chain feed an
optional input another operation of the catalog requires, for specs that mark no input of an operation
required (a loosely declared spec leaves ``ts`` of a thread read unmarked). An input whose own description
says it only filters what the operation returns ("Only return boxes with the given url.", "Filter by …")
is declared as what it is: an option the caller may leave out, no lookup's to feed. In a catalog whose
things include filters ("Filter ID of the saved filter …"), the word names one of them, no narrowing."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning.lookups import singular_kind, wanted

# an input's description opening by saying it narrows what is returned ("If present, only return …")
_FILTERS = re.compile(r"\s*(?:if [^,.]{0,40},\s*)?(?:only returns?\b|(?:a )?(filters?)\b)", re.IGNORECASE)


def feedable(api: Api, name: str, vocabulary: CatalogVocabulary) -> bool:
    """``lookups.wanted`` of an optional input, less one wanted only because another operation requires
    it whose description says it filters (an input named as a kind of thing stays wanted)."""
    if not wanted(api, name, False, vocabulary):
        return False
    if "_" not in name and singular_kind(name) in vocabulary.kind_set:
        return True  # named as a kind of thing of the catalog
    param = next((p for p in api.params if p.name == name), None)
    said = _FILTERS.match(param.description or "") if param is not None else None
    if said is None:
        return True
    word = said.group(1)  # "Filter …": a filter of the catalog's own, where it has that kind of thing
    return word is not None and singular_kind(word.lower()) in vocabulary.kind_set
