"""Where the public reference data sets live for the tests: ``../shared/data`` beside the repository."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("APIATLAS_SHARED_DATA") or REPO.parent / "shared" / "data")


def shared(*parts: str) -> Path:
    """A path inside the shared data folder (which may be absent on a fresh clone)."""
    return SHARED_DATA.joinpath(*parts)


def needs_shared(*paths: Path) -> pytest.MarkDecorator:
    """Skip, naming what is missing, unless every path exists."""
    missing = [str(p) for p in paths if not p.exists()]
    return pytest.mark.skipif(
        bool(missing),
        reason=f"reference data absent ({', '.join(missing)}): see ../shared/data beside the repository",
    )
