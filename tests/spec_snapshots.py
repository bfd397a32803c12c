"""A snapshot compiled from an OpenAPI spec the test writes (no embeddings: words only, fast)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apiatlas.build import compile_docs


def compile_spec(folder: Path, spec: dict[str, Any], name: str = "spec") -> Path:
    """``spec`` written to ``folder/NAME.json``, compiled into ``folder/NAME.atlas`` (returned)."""
    (folder / f"{name}.json").write_text(json.dumps(spec), encoding="utf-8")
    out = folder / f"{name}.atlas"
    compile_docs(folder / f"{name}.json", overlays_dir=None, config_path=None, out=out, write_report=False,
                 embeddings="none")  # fmt: skip
    return out
