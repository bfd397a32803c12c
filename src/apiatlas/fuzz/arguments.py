"""Tool arguments for the campaign: drawn from each tool's own inputSchema, and hostile variants of them.

``schema_examples`` runs hypothesis (with ``hypothesis-jsonschema``) under a fixed seed, so the same
seed and the same tool list give the same arguments. ``CallMaker`` mixes those with the hostile
corpus, real API names and parameter names of the snapshot, bad cursors and evidence ids.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apiatlas.fuzz.corpus import boundary_integer, hostile_string, hostile_value, nested


def schema_examples(schema: dict[str, Any], count: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``count`` argument objects valid for ``schema``, the same ones for the same seed."""
    import tempfile

    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed
    from hypothesis.configuration import set_hypothesis_home_dir
    from hypothesis_jsonschema import from_schema

    set_hypothesis_home_dir(str(Path(tempfile.gettempdir()) / "apiatlas-hypothesis"))  # not the cwd

    found: list[dict[str, Any]] = []
    if count <= 0:
        return found
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        strategy = from_schema(schema)

        @fixed_seed(seed)
        @settings(
            max_examples=count,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
            deadline=None,
        )
        @given(strategy)
        def collect(value: Any) -> None:
            if isinstance(value, dict):
                found.append(value)

        collect()
    return found[:count]


@dataclass(frozen=True)
class FuzzCall:
    """One call of the campaign: a tool (full name) and its arguments, and which generator made it."""

    tool: str
    arguments: dict[str, Any]
    source: str  # schema | hostile | unknown


@dataclass
class ApiShape:
    """What the campaign knows of one API of the snapshot: its key and its parameter names and types."""

    key: str
    params: list[tuple[str, str]]  # (name, JSON type or "")
    input_tables: list[tuple[str, list[str]]] = field(default_factory=list)


@dataclass
class CallMaker:
    """Makes the campaign's calls from a seed, the server's tools and the snapshot's APIs."""

    rng: random.Random
    prefix: str
    tools: dict[str, dict[str, Any]]  # full tool name -> inputSchema
    apis: list[ApiShape]
    schema_pool: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    evidence_ids: list[str] = field(default_factory=list)
    cursors: list[str] = field(default_factory=list)

    def next_call(self) -> FuzzCall:
        roll = self.rng.random()
        if roll < 0.4:
            return self._schema_call()
        if roll < 0.93:
            return self._hostile_call()
        return self._unknown_call()

    # -- generators -------------------------------------------------------------------------------------
    def _schema_call(self) -> FuzzCall:
        tool = self.rng.choice(sorted(self.tools))
        pool = self.schema_pool.get(tool) or [{}]
        arguments = dict(self.rng.choice(pool))
        if arguments and self.rng.random() < 0.3:  # one field made hostile
            name = self.rng.choice(sorted(arguments))
            arguments[name] = hostile_value(self.rng)
        return FuzzCall(tool, arguments, "schema")

    def _hostile_call(self) -> FuzzCall:
        kind = self.rng.choice(
            ["execute_api", "execute_api", "execute_api", "search", "plan_chain", "describe_api", "list_apis",
             "fetch_evidence", "execute_chain", "dependency_chain", "list_business_objects"]
        )  # fmt: skip
        name = self.prefix + kind
        if name not in self.tools:
            return self._unknown_call()
        return FuzzCall(name, getattr(self, f"_{kind}")(), "hostile")

    def _unknown_call(self) -> FuzzCall:
        roll = self.rng.random()
        if roll < 0.4:
            tool = self.rng.choice(
                [f"{self.prefix}drop_database", "execute_sql", f"{self.prefix}", "x" * 300]
            )
            return FuzzCall(tool, {"sql": hostile_string(self.rng)}, "unknown")
        tool = self.rng.choice(sorted(self.tools))
        extra = {hostile_string(self.rng)[:100] or "k": hostile_value(self.rng)}
        return FuzzCall(tool, extra, "unknown")

    # -- one hostile call per tool ------------------------------------------------------------------------
    def _api_name(self) -> str:
        if self.apis and self.rng.random() < 0.8:
            return self.rng.choice(self.apis).key
        return self.rng.choice(
            ["", "API_", "nope", "public.pg_sleep", "pg_catalog.pg_read_file", hostile_string(self.rng)]
        )

    def _value_for(self, json_type: str) -> Any:
        roll = self.rng.random()
        if roll < 0.35:
            return hostile_value(self.rng)
        if json_type == "integer" or roll < 0.55:
            return boundary_integer(self.rng)
        if json_type == "boolean":
            return self.rng.choice([True, False, 1, 0, "true", "yes"])
        if json_type == "number":
            return self.rng.choice([0.1, -1e-9, 1e20, 12345.6789, "1,5"])
        return hostile_string(self.rng)

    def _execute_api(self) -> dict[str, Any]:
        name = self._api_name()
        api = next((a for a in self.apis if a.key == name), None)
        args: dict[str, Any] = {}
        tables: dict[str, Any] = {}
        if api is not None:
            for param, json_type in api.params:
                if self.rng.random() < 0.8:
                    args[param] = self._value_for(json_type)
            for table, columns in api.input_tables:
                rows = [{c: self._value_for("") for c in columns} for _ in range(self.rng.choice([0, 1, 3]))]
                tables[table] = rows if self.rng.random() < 0.9 else hostile_value(self.rng)
        if self.rng.random() < 0.2:
            args[hostile_string(self.rng)[:80] or "x"] = hostile_value(self.rng)
        call: dict[str, Any] = {"api": name, "args": args}
        if tables:
            call["input_tables"] = tables
        return call

    def _search(self) -> dict[str, Any]:
        query = (
            hostile_string(self.rng)
            if self.rng.random() < 0.8
            else " ".join(["word"] * self.rng.choice([199, 201, 3000]))
        )
        call: dict[str, Any] = {"query": query}
        if self.rng.random() < 0.3:
            call["object_key"] = hostile_string(self.rng)[:200]
        if self.rng.random() < 0.3:
            call["limit"] = self.rng.choice([1, 100, 101, 0, -5, 10**9])
        return call

    def _plan_chain(self) -> dict[str, Any]:
        call: dict[str, Any] = {"request": hostile_string(self.rng)}
        if self.rng.random() < 0.5:
            call["target"] = self._api_name()
        if self.rng.random() < 0.5:
            call["known"] = {hostile_string(self.rng)[:50] or "k": hostile_value(self.rng) for _ in range(3)}
        return call

    def _describe_api(self) -> dict[str, Any]:
        return {"api": self._api_name()}

    def _dependency_chain(self) -> dict[str, Any]:
        call: dict[str, Any] = {"api": self._api_name()}
        if self.rng.random() < 0.5:
            call["depth"] = self.rng.choice([0, 1, 4, 5, 10**6, -1])
        if self.rng.random() < 0.3:
            call["direction"] = self.rng.choice(["upstream", "downstream", "sideways", ""])
        return call

    def _cursor(self) -> str | None:
        pool = [None, "", "garbage", "eyJvZmZzZXQiOiAtMX0=", "AAAA", "'; DROP TABLE x; --", "x" * 10_000]
        if self.cursors and self.rng.random() < 0.4:
            good = self.rng.choice(self.cursors)
            pool += [good, good[:-2], good + "A", good[::-1]]
        return self.rng.choice(pool)

    def _list_apis(self) -> dict[str, Any]:
        call: dict[str, Any] = {"object_key": hostile_string(self.rng)[:100]}
        cursor = self._cursor()
        if cursor is not None:
            call["cursor"] = cursor
        return call

    def _list_business_objects(self) -> dict[str, Any]:
        cursor = self._cursor()
        return {} if cursor is None else {"cursor": cursor}

    def _fetch_evidence(self) -> dict[str, Any]:
        ids = ["", "ev-", "ev-0", "ev-99999999", "../ev-1", "ev-1' OR '1'='1", "x" * 5000]
        if self.evidence_ids:
            good = self.rng.choice(self.evidence_ids)
            ids += [good, good, good + "0", good.upper()]
        call: dict[str, Any] = {"evidence_id": self.rng.choice(ids)}
        if self.rng.random() < 0.4:
            call["table"] = hostile_string(self.rng)[:200]
        cursor = self._cursor()
        if cursor is not None:
            call["cursor"] = cursor
        return call

    def _execute_chain(self) -> dict[str, Any]:
        steps: list[Any] = []
        for index in range(self.rng.choice([1, 2, 3, 21])):
            step = self._execute_api()
            if index and self.rng.random() < 0.5:
                source = self.rng.choice([index, index - 1, -1, 99])
                mapping = {
                    "source_step": source,
                    "source_table": hostile_string(self.rng)[:40],
                    "column": "x",
                }
                step["param_mapping"] = {"x": mapping}
            if self.rng.random() < 0.1:
                step["on_many"] = self.rng.choice(["each", "first", "all", "bogus"])
            steps.append(step)
        if self.rng.random() < 0.05:
            steps = [nested(60)]
        return {"steps": steps}
