"""A compile's snapshot does not depend on Python's string hash seed: API bodies are written in the order
the compiler built their dicts (not re-sorted), so that order must not come from iterating a set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared_data import shared

REPO = Path(__file__).resolve().parents[1]
BANK_DOCS = REPO / "examples" / "bank" / "docs"
SLACK = shared("openapi", "slack_web_openapi_v2.json")


def _compile(source: Path, out: Path, seed: str, cache: Path) -> bytes:
    out.parent.mkdir(parents=True)
    env = {**os.environ, "PYTHONHASHSEED": seed, "APIATLAS_CACHE": str(cache)}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "apiatlas.cli",
            "compile",
            str(source),
            "--out",
            str(out),
            "--embeddings",
            "none",
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=300,
    )
    return out.read_bytes()


@pytest.mark.parametrize("source", [BANK_DOCS, SLACK], ids=["bank", "slack"])
def test_two_hash_seeds_give_the_same_bytes(source: Path, tmp_path: Path) -> None:
    if not source.exists():
        pytest.skip(f"{source} is absent (../shared/data is not beside the repository)")
    first = _compile(source, tmp_path / "a" / "out.atlas", "1", tmp_path / "cache")
    second = _compile(source, tmp_path / "b" / "out.atlas", "2", tmp_path / "cache")
    assert first == second
