"""Examples in tool schemas come from the snapshot being served: its own API key, object key and input."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apiatlas.snapshot.catalog_reader import CatalogReader

SCANNED_APIS = 50  # kept APIs looked at (in key order) for one with a scalar input


@dataclass(frozen=True)
class CatalogExamples:
    """An API key, a business object key and an input (name and value) the served catalog really has;
    None where it has none, and then the tool texts say it without an example."""

    api_key: str | None = None
    object_key: str | None = None
    input_name: str | None = None
    input_value: Any = None

    @classmethod
    def of(cls, snapshot: CatalogReader) -> CatalogExamples:
        """The kept API with the shortest key (an entry point when there is one: it is repeated in three
        tools' schemas), its object and the first scalar input of the first kept APIs that has one (its
        documented example value, else a placeholder)."""
        keys = snapshot.all_api_keys()
        entries = snapshot.entry_points()
        candidates = entries or keys
        api_key = (
            min(candidates, key=lambda k: (len(k), k)) if candidates else None
        )  # the shortest costs least
        objects, _ = snapshot.list_objects(0, 1)
        object_key = snapshot.api_object(api_key) if api_key else None
        name, value = None, None
        for key in ([api_key] if api_key else []) + keys[:SCANNED_APIS]:
            api = snapshot.get_api(key)
            param = next((p for p in api.params), None) if api is not None else None
            if param is not None:
                name, value = param.name, param.example if param.example is not None else "..."
                break
        return cls(
            api_key=api_key,
            object_key=object_key or (objects[0].key if objects else None),
            input_name=name,
            input_value=value,
        )

    def api_help(self) -> str:
        """The description of an ``api`` argument."""
        return f"API key, e.g. {self.api_key}" if self.api_key else "API key from search or list_apis"

    def object_help(self) -> str:
        """The description of an ``object_key`` argument."""
        base = "object key from list_business_objects"
        return f"{base}, e.g. {self.object_key}" if self.object_key else base

    def known_help(self) -> str:
        """The description of plan_chain's ``known`` values."""
        base = "known inputs"
        if self.input_name is None:
            return base
        shown = json.dumps({self.input_name: self.input_value}, ensure_ascii=False, separators=(",", ": "))
        return f"{base}, e.g. {shown}"

    def fields(self) -> dict[str, str]:
        """What a tool description may name: ``{object_hint}`` is " (e.g. KEY)" or nothing."""
        return {"object_hint": f" (e.g. {self.object_key})" if self.object_key else ""}
