"""Abstention: signals of how well a search's top hit fits the request, and the calibrated model over them.

A search computes ``signals`` (named floats, see ``SIGNALS``) from what it already has: the query's
stems and their rarity, the lexical and dense candidate lists and the fused order. An
``AbstentionModel`` (logistic regression over a subset of them, fitted on development data by
``apiatlas eval retrieval --fit`` and recorded in the manifest) turns them into the probability that
the request is served by the catalog; below its ``threshold`` the search answers NO_CONFIDENT_MATCH.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from apiatlas.search.reach_rules import out_of_reach, words_back_the_answer

# every signal a search computes, with what it measures (all are about the fused top hit unless said)
SIGNALS: dict[str, str] = {
    "coverage": "share of the query's stems the top hit contains, each weighed by its rarity (idf)",
    "missing_salient": "rarity of the rarest query stem the top hit lacks / rarity of an unknown stem",
    "unknown": "rarity-weighted share of the query's stems no card of the catalog has (typos corrected)",
    "title_cover": "rarity-weighted share of the query's stems in the top hit's title",
    "title_recall": "rarity-weighted share of the top hit's title stems in the query",
    "object_cover": "rarity-weighted share of the query's stems in the top hit's business object name",
    "lex_per_term": "log(1 + top bm25 score / number of query stems)",
    "lex_gap": "(bm25 of the first - bm25 of the second lexical hit) / bm25 of the first",
    "cos_top": "highest cosine of the query to any card",
    "cos_z": "(highest cosine - mean cosine over the catalog) / their standard deviation",
    "cos_gap_median": "highest cosine - median cosine of the dense top candidates",
    "cos_gap2": "highest cosine - second highest cosine",
    "cos_gap10": "highest cosine - tenth highest cosine",
    "cover_top5": "highest rarity-weighted coverage of the query's stems by any of the first 5 hits",
    "agree": "1 when the lexical and the dense lists have the same first hit",
    "overlap5": "share of the dense top 5 also in the lexical top 5",
    "fused_gap": "fused score of the first hit - fused score of the second",
    "concentration": "share of the first 10 fused hits in the top hit's business object",
    "terms": "log(1 + number of distinct query stems without digits)",
}
LEXICAL_SIGNALS = (
    "coverage",
    "missing_salient",
    "unknown",
    "title_cover",
    "title_recall",
    "object_cover",
    "lex_per_term",
    "lex_gap",
    "fused_gap",
    "concentration",
    "terms",
)
DENSE_SIGNALS = (
    "unknown",
    "cos_top",
    "cos_z",
    "cos_gap_median",
    "cos_gap2",
    "fused_gap",
    "concentration",
    "terms",
)
HYBRID_SIGNALS = tuple(SIGNALS)


def standardised_logistic(
    bias: float,
    names: Sequence[str],
    weights: Sequence[float],
    center: Sequence[float],
    scale: Sequence[float],
    signals: Mapping[str, float],
) -> float:
    """``sigmoid(bias + sum(weight * (signal - center) / scale))`` over ``names`` (a missing signal is 0);
    the abstention model's and the plan-confidence model's probability."""
    z = bias + sum(
        w * (signals.get(name, 0.0) - c) / s
        for name, w, c, s in zip(names, weights, center, scale, strict=True)
    )
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


class LogisticModel(BaseModel):
    """``p = sigmoid(bias + sum(weight * (signal - center) / scale))`` over named signals: the abstention
    model and the plan-confidence model (``planning.confidence``). An empty ``signals`` list gives p = 1."""

    model_config = ConfigDict(frozen=True)

    signals: list[str] = Field(default_factory=list)
    weights: list[float] = Field(default_factory=list)
    center: list[float] = Field(default_factory=list)
    scale: list[float] = Field(default_factory=list)
    bias: float = 0.0
    threshold: float = 0.0

    def _check_signals(self, known: Mapping[str, str], what: str) -> None:
        """One weight, center and scale per signal, each signal one of ``known``."""
        n = len(self.signals)
        if not len(self.weights) == len(self.center) == len(self.scale) == n:
            raise ValueError("signals, weights, center and scale must have the same length")
        unknown = [s for s in self.signals if s not in known]
        if unknown:
            raise ValueError(f"unknown {what} signals {unknown}; known: {sorted(known)}")

    def probability(self, signals: Mapping[str, float]) -> float:
        """The model's probability for these signal values, in [0, 1]."""
        if not self.signals:
            return 1.0
        return standardised_logistic(self.bias, self.signals, self.weights, self.center, self.scale, signals)


class AbstentionModel(LogisticModel):
    """A ``LogisticModel`` of the search's ``SIGNALS``: the probability that the request is served by the
    catalog; abstain when ``p < threshold``. An empty ``signals`` list never abstains (p = 1)."""

    @model_validator(mode="after")
    def _same_lengths(self) -> AbstentionModel:
        self._check_signals(SIGNALS, "abstention")
        if any(s <= 0 for s in self.scale):
            raise ValueError("every scale must be positive")
        return self


def coverage(
    matched: Sequence[str], terms: Sequence[str], rarity: Mapping[str, float] | None = None
) -> float:
    """The share of the query's stems in ``matched``, each weighed by its rarity (idf; 1 when unknown)."""
    weight = rarity or {}
    unique = list(dict.fromkeys(terms))
    total = sum(weight.get(t, 1.0) for t in unique)
    have = set(matched)
    return sum(weight.get(t, 1.0) for t in unique if t in have) / total if total > 0 else 0.0


@dataclass
class SearchView:
    """What a search saw, enough to compute every signal (lists best first)."""

    terms: list[str]
    rarity: Mapping[str, float]
    max_rarity: float
    vocabulary: frozenset[str] | None
    corrected: frozenset[str]  # query stems a typo correction matched to a catalog word
    lexical: Mapping[str, tuple[float, list[str], bool]]  # key -> (bm25, matched stems, exact)
    cosines: Mapping[str, float]
    dense_order: list[str]
    dense_mean: float | None
    dense_std: float | None
    fused: Mapping[str, float]
    order: list[str]
    objects: Mapping[str, str]  # key -> business object key (for the first hits)
    title_stems: list[str] = field(default_factory=list)  # of the top hit
    object_stems: list[str] = field(default_factory=list)  # of the top hit's business object
    surface: Mapping[str, str] = field(default_factory=dict)  # query stem -> the word as the query wrote it
    asked: Mapping[str, str] = field(default_factory=dict)  # action -> the query word that asks for it
    said: list[str] = field(default_factory=list)  # the query's words as written, lower-case
    read: list[str] = field(default_factory=list)  # each of them as the catalog writes it, when read
    # across scripts (``search.bridge.Across.read``: «всех неймспейсов» all, namespace); empty otherwise
    foreign: frozenset[str] = frozenset()  # query stems in a script the catalog does not write
    unread: frozenset[str] = frozenset()  # query stems in such a script read as no catalog word
    alien: frozenset[str] = frozenset()  # query stems in another script than the catalog's main one

    def as_dense(self, names: Mapping[str, tuple[str, str]]) -> SearchView:
        """This view as a dense-only search sees it: the dense order, cosines as the fused scores, no
        words matched (what the dense abstention model was fitted on); ``names``: key -> (object, title)."""
        top = self.dense_order
        return replace(
            self,
            lexical={},
            fused={k: self.cosines[k] for k in top},
            order=top,
            objects={k: names.get(k, ("", ""))[0] for k in top[:10]},
        )


def foreign_share(view: SearchView, unread: bool = False) -> float:
    """The share of the query's stems (numbers aside) in a script the catalog does not write."""
    terms = [t for t in dict.fromkeys(view.terms) if not any(ch.isdigit() for ch in t)]
    which = view.unread if unread else view.foreign
    return sum(1 for t in terms if t in which) / len(terms) if terms else 0.0


def best_lexical_cover(view: SearchView, idf: Callable[[str], float]) -> float:
    """The rarity-weighted share of the request's stems (numbers and unread foreign words aside) that
    its best lexical hit matches (1 without one): a name sharing one word of five with the request is
    weak evidence, however far it scores above the other names."""
    lexical = {k: v for k, v in view.lexical.items() if not v[2]}
    terms = [t for t in dict.fromkeys(view.terms) if t not in view.unread and not any(c.isdigit() for c in t)]
    if not lexical or not terms:
        return 1.0
    best = min(lexical, key=lambda k: (-lexical[k][0], k))
    return coverage(lexical[best][1], terms, {t: idf(t) for t in terms})


def signals_of(view: SearchView) -> dict[str, float]:
    """Every signal of ``SIGNALS`` for the fused top hit of ``view`` (zeros for what the mode lacks).

    The word signals read the query's stems in the scripts the catalog writes (``view.foreign`` aside:
    a Russian word is no evidence either way about an English catalog); ``terms`` counts them all."""
    out = dict.fromkeys(SIGNALS, 0.0)
    # numbers are values (account numbers, INNs, dates), not words a card could hold
    every = [t for t in dict.fromkeys(view.terms) if not any(ch.isdigit() for ch in t)]
    out["terms"] = math.log1p(len(every))
    terms = [t for t in every if t not in view.foreign]
    if not view.order:
        return out
    top = view.order[0]
    rarity = view.rarity
    if view.vocabulary is not None and terms:
        unknown = [t for t in terms if t not in view.vocabulary and t not in view.corrected]
        out["unknown"] = coverage(unknown, terms, rarity)
    matched = view.lexical[top][1] if top in view.lexical else []
    out["coverage"] = coverage(matched, terms, rarity)
    first5 = [view.lexical[k][1] for k in view.order[:5] if k in view.lexical]
    out["cover_top5"] = max((coverage(m, terms, rarity) for m in first5), default=0.0)
    lacking = [rarity.get(t, view.max_rarity) for t in terms if t not in set(matched)]
    out["missing_salient"] = max(lacking, default=0.0) / view.max_rarity if view.max_rarity > 0 else 0.0
    out["title_cover"] = coverage([t for t in terms if t in set(view.title_stems)], terms, rarity)
    title = list(dict.fromkeys(view.title_stems))
    have = set(terms) | set(matched)
    out["title_recall"] = coverage([t for t in title if t in have], title, rarity) if title else 0.0
    out["object_cover"] = coverage([t for t in terms if t in set(view.object_stems)], terms, rarity)
    bm25 = sorted((v[0] for v in view.lexical.values() if not v[2]), reverse=True)
    if bm25 and bm25[0] > 0:
        out["lex_per_term"] = math.log1p(bm25[0] / max(len(terms), 1))
        out["lex_gap"] = (bm25[0] - (bm25[1] if len(bm25) > 1 else 0.0)) / bm25[0]
    if view.dense_order:
        cos = [view.cosines[k] for k in view.dense_order]
        out["cos_top"] = cos[0]
        if view.dense_mean is not None and view.dense_std:
            out["cos_z"] = (cos[0] - view.dense_mean) / view.dense_std
        out["cos_gap_median"] = cos[0] - float(np.median(cos))
        out["cos_gap2"] = cos[0] - cos[1] if len(cos) > 1 else 0.0
        out["cos_gap10"] = cos[0] - cos[min(9, len(cos) - 1)]
        lex_order = sorted(
            (k for k, v in view.lexical.items() if not v[2]), key=lambda k: (-view.lexical[k][0], k)
        )
        if lex_order:
            out["agree"] = float(lex_order[0] == view.dense_order[0])
            out["overlap5"] = len(set(lex_order[:5]) & set(view.dense_order[:5])) / 5
    scores = [view.fused.get(k, 0.0) for k in view.order[:2]]
    out["fused_gap"] = scores[0] - scores[1] if len(scores) > 1 else scores[0]
    first = [view.objects.get(k, "") for k in view.order[:10]]
    out["concentration"] = sum(1 for o in first if o == first[0]) / len(first)
    return {k: round(v, 6) for k, v in out.items()}


DROPPED_COVERAGE = 0.6  # a dropped API is named when its card holds this share of the request's words
DROPPED_MARGIN = 0.3  # ... and, when a kept API fits too, this much more of them (no in-catalog bank loss)


def abstains(
    model: AbstentionModel,
    signals: Mapping[str, float],
    *,
    hits: bool,
    exact: bool,
    dropped_cover: float,
    undone: bool = False,
    reach: bool = True,
) -> bool:
    """The decision of a search: no hits, or (no exact name and) the model is not sure — unless the
    request's words back the answer (``reach_rules.words_back_the_answer``) —, or the request is
    out of the catalog's reach (``reach_rules.out_of_reach``), or a documented API the funnel dropped fits the
    request clearly better than the best kept hit, or (``undone``) the request asks for an action that
    only a dropped API that fits it does. Without ``reach``, the reach rules are not read (what the shared
    model decides alone: ``evals.reach_model``)."""
    if not hits:
        return True
    if exact:
        return False
    if undone:
        return True
    if reach and model.signals and out_of_reach(signals):  # a mode without a model never abstains
        return True
    if model.probability(signals) < model.threshold and not words_back_the_answer(signals):
        return True
    return dropped_cover >= max(DROPPED_COVERAGE, signals.get("coverage", 0.0) + DROPPED_MARGIN)
