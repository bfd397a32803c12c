"""Optional enrichment of an SDK's cards by a model: usage scenarios and search hints per member, written
only from what the card already holds — its signature, documentation and body facts.

``apiatlas compile SDK --llm openai:MODEL@BASE_URL`` asks the model once per kept member (four at a time)
for an ``Enrichment``; an answer naming a type or member that is not in the member's own input is sent
back (``invented_names``), as an invalid one is, at most twice, and a member whose answer stays invalid
simply gets none (counted as failed, with the reason). Answers are cached in
``$APIATLAS_CACHE/enrichment.sqlite`` by a key over the model, the prompt version and the member's input,
so a rebuild asks only for what changed. Each enriched API keeps, in ``extra["enrichment"]``, the texts
and their provenance (model, prompt version, cache key); search reads the texts (``Api.written_texts``),
cards show them as model-written. The build is deterministic and complete without it.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.catalog.model import ENRICHMENT_KEY, Api, Catalog
from apiatlas.llm import ChatModel, ModelFailed
from apiatlas.local_cache import cache_root

PROMPT_VERSION = "sdk-enrichment-1"
PROMPT = (
    "You write search aids for one member of a .NET SDK, for engineers who ask in English or in Russian. "
    "From ONLY the signature, documentation and body facts given, write up to 3 short usage scenarios "
    "(when a developer would use this member) and up to 8 search hints (short phrases a developer might "
    "type to find it, English and Russian). Never name a type, member or parameter that is not in the "
    "input; never invent behaviour the input does not state."
)
WORKERS = 4
# names a model may invent: dotted (Gtk.Window), camelCase (setTitle), PascalCase with two capitals
_NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|"
                   r"\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")  # fmt: skip


class Enrichment(BaseModel):
    """The model's answer for one member."""

    model_config = ConfigDict(extra="forbid")

    scenarios: list[str] = Field(max_length=3)
    search_hints: list[str] = Field(max_length=8)


def member_input(api: Api) -> dict[str, Any]:
    """What the model may write from: the card's signature, documentation, parameters and body facts."""
    member = api.extra.get("member") or {}
    docs = member.get("docs") or {}
    return {
        "member": member.get("doc_id", api.key),
        "kind": member.get("kind", ""),
        "declared_in": member.get("declaring_type", ""),
        "signature": member.get("signature", ""),
        "summary": api.title,
        "remarks": api.description,
        "returns": docs.get("returns", ""),
        "parameters": [{"name": p.name, "type": p.domain_type, "doc": p.description} for p in api.params],
        "facts": member.get("facts") or {},
    }


def cache_key(model: str, given: dict[str, Any]) -> str:
    text = json.dumps([PROMPT_VERSION, model, given], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def invented_names(answer: Enrichment, given: dict[str, Any]) -> list[str]:
    """Identifier-like names in ``answer`` (dotted, camelCase, PascalCase with two capitals) that the
    member's input never says: a model that names them has invented an API."""
    known = json.dumps(given, ensure_ascii=False)
    found = [m.group(0) for text in (*answer.scenarios, *answer.search_hints) for m in _NAME.finditer(text)]
    return sorted({name for name in found if name not in known})


class EnrichmentCache:
    """Answers by cache key, in a SQLite file shared by builds (as the vector cache)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("CREATE TABLE IF NOT EXISTS enrichment (key TEXT PRIMARY KEY, answer TEXT NOT NULL)")
        self._lock = threading.Lock()

    def get(self, key: str) -> Enrichment | None:
        with self._lock:
            row = self._db.execute("SELECT answer FROM enrichment WHERE key = ?", (key,)).fetchone()
        return None if row is None else Enrichment.model_validate_json(row[0])

    def put(self, key: str, answer: Enrichment) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO enrichment VALUES (?, ?)", (key, answer.model_dump_json())
            )


def default_cache_path() -> Path:
    return cache_root() / "enrichment.sqlite"


@dataclass
class EnrichmentRun:
    """What one build's enrichment did: members written by the model, read from the cache, failed."""

    model: str
    written: int = 0
    cached: int = 0
    failed: dict[str, str] = field(default_factory=dict)  # API key -> why

    def manifest(self) -> dict[str, Any]:
        """What the snapshot's manifest records of it (its options' ``enrichment``)."""
        return {"model": self.model, "prompt_version": PROMPT_VERSION, "written": self.written,
                "cached": self.cached, "failed": len(self.failed)}  # fmt: skip

    def summary(self) -> str:
        line = f"enrichment by {self.model}: {self.written} written, {self.cached} from the cache"
        return line + (f", {len(self.failed)} failed (no enrichment)" if self.failed else "")


@dataclass
class Enricher:
    """The model and cache a build enriches its SDK cards with (``PassContext.enricher``)."""

    model: ChatModel
    cache: EnrichmentCache
    run: EnrichmentRun | None = None

    def enrich(self, catalog: Catalog, progress: Callable[[int, int], None] | None = None) -> EnrichmentRun:
        """Every kept member of an SDK catalog enriched in place (``extra["enrichment"]``)."""
        apis = [a for a in catalog.apis.values() if a.funnel.kept and "member" in a.extra]
        run = EnrichmentRun(self.model.model)
        done = 0
        lock = threading.Lock()

        def one(api: Api) -> None:
            nonlocal done
            self._enrich_one(api, run, lock)
            with lock:
                done += 1
                if progress is not None:
                    progress(done, len(apis))

        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            list(pool.map(one, apis))
        self.run = run
        return run

    def _enrich_one(self, api: Api, run: EnrichmentRun, lock: threading.Lock) -> None:
        given = member_input(api)
        key = cache_key(self.model.model, given)
        answer = self.cache.get(key)
        cached = answer is not None
        if answer is None:

            def check(candidate: Enrichment) -> str:
                names = invented_names(candidate, given)
                return f"names not in the member's input: {', '.join(names)}" if names else ""

            try:
                answer = self.model.ask_json(PROMPT, given, Enrichment, check)
            except ModelFailed as exc:
                with lock:
                    run.failed[api.key] = str(exc)
                return
            self.cache.put(key, answer)
        with lock:
            run.cached += cached
            run.written += not cached
        api.extra[ENRICHMENT_KEY] = {
            **answer.model_dump(),
            "provenance": {"model": self.model.model, "prompt_version": PROMPT_VERSION, "key": key},
        }
