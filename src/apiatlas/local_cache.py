"""Where apiatlas keeps what it can rebuild: card vectors, model-written enrichment, held stdio answers."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "APIATLAS_CACHE"


def cache_root() -> Path:
    """``$APIATLAS_CACHE``, else ``~/.cache/apiatlas`` (read at each call: tests and runs may set it)."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "apiatlas")
