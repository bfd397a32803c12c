"""What a search answers: the hits best first, or an abstention with the closest business objects."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.errors import ReasonCode
from apiatlas.search.confidence import SearchView
from apiatlas.text import content_terms


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    LEXICAL = "lexical"  # bm25 (+ typo fallback) only
    DENSE = "dense"  # embedding cosine only


class SearchResultHit(BaseModel):
    """One API found: what it is, where it lives and why it matched."""

    model_config = ConfigDict(frozen=True)

    api_key: str
    object_key: str
    title: str
    score: float
    why: str
    exact: bool = False
    matched: list[str] = Field(default_factory=list)
    cosine: float | None = None


class SearchOutcome(BaseModel):
    """Hits best first, or an abstention (``NO_CONFIDENT_MATCH``) with the closest business objects."""

    query: str
    mode: SearchMode
    hits: list[SearchResultHit] = Field(default_factory=list)
    abstained: bool = False
    confidence: float = 0.0  # the abstention model's probability that the catalog serves the request
    reason: ReasonCode | None = None
    closest_objects: list[str] = Field(default_factory=list)
    # the ranked hits even when abstaining (evals measure the ranking and the abstention separately)
    ranked: list[SearchResultHit] = Field(default_factory=list, exclude=True)
    # the abstention signals (``search.confidence.SIGNALS``) and the best dropped API's coverage,
    # kept so that evals can calibrate and replay the decision (``confidence.abstains``)
    signals: dict[str, float] = Field(default_factory=dict, exclude=True)
    dropped_cover: float = Field(default=0.0, exclude=True)
    # the action the request orders ('close ("закрой")') when only a dropped API does it, else ""
    undone: str = Field(default="", exclude=True)
    # the mode whose abstention model judged the request when not its own: a request mostly in a script
    # the catalog does not write is judged by the dense model, over the signals of the dense ranking
    judged_as: SearchMode | None = Field(default=None, exclude=True)
    # when abstaining: documented APIs that fit the request but the funnel dropped ("KEY: stage")
    not_callable: list[str] = Field(default_factory=list)
    # ranked by words alone because the query's vector would have waited too long (``wait_ms``)
    words_only: bool = False

    @property
    def judge(self) -> SearchMode:
        """The mode whose abstention model decides this outcome (``signals`` are that mode's)."""
        return self.judged_as or self.mode

    @property
    def doubt(self) -> str:
        """Why the search abstained, in the words the MCP tool and the CLI both say."""
        if self.undone:
            return f"the request orders {self.undone}, which no callable API does"
        return "no API fits this request confidently"


def hit_of(
    key: str, score: float, exact: bool, view: SearchView, names: dict[str, tuple[str, str]]
) -> SearchResultHit:
    """One hit as the search answers it: its object and title, and why it matched (exact name, the
    query's words as written, the meaning's cosine)."""
    matched = view.lexical[key][1] if key in view.lexical else []
    cos = view.cosines.get(key)
    reasons: list[str] = []
    if exact:
        reasons.append("exact API name")
    said = content_terms(matched)  # "в", "the" explain nothing
    if said:  # as the query wrote them ("кредитный", not the stem "кредитн")
        reasons.append("words: " + ", ".join(dict.fromkeys(view.surface.get(m, m) for m in said)))
    if cos is not None:
        reasons.append(f"meaning {cos:.2f}")
    obj, title = names.get(key, ("", ""))
    return SearchResultHit(
        api_key=key,
        object_key=obj,
        title=title,
        score=round(score, 4),
        why="; ".join(reasons) or "related",
        exact=exact,
        matched=list(matched),
        cosine=round(cos, 4) if cos is not None else None,
    )
