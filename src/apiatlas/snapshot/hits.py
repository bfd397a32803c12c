"""Search results returned by ``Snapshot.search``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SearchHit(BaseModel):
    """One API found by a search: higher ``score`` is better; ``matched`` = query stems it contains."""

    model_config = ConfigDict(frozen=True)

    api_key: str
    object_key: str
    title: str
    score: float
    matched: list[str] = Field(default_factory=list)
    exact: bool = False  # the query named this API's key
