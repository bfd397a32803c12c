"""Write the sample bank or a generated documentation set (and its overlays) into a fresh folder."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from apiatlas.errors import ConfigError, Location
from apiatlas.samples.bank_catalog import sample_bank
from apiatlas.samples.overlays import write_overlays
from apiatlas.samples.render import BO_DIR, WriteStats, page_count, write_doc_set
from apiatlas.samples.scale import generate_doc_set
from apiatlas.samples.spec import DocSet

GENERATED_DIRS = (BO_DIR, "Types")
REPO_ROOT = Path(__file__).resolve().parents[3]
SAMPLE_DOCS = REPO_ROOT / "examples" / "bank" / "docs"
SAMPLE_OVERLAYS = REPO_ROOT / "examples" / "bank" / "overlays"
# the sample bank's build config: the words its users say for its names (the vocabulary pass reads it)
SAMPLE_CONFIG = REPO_ROOT / "examples" / "bank" / "apiatlas.yaml"


def prepare_out_dir(out: Path, force: bool) -> None:
    """Create ``out``; refuse a non-empty one unless ``force``, which clears only generated pages."""
    if out.exists() and not out.is_dir():
        raise ConfigError("the output path exists and is not a directory", location=Location(file=str(out)))
    if out.exists() and any(out.iterdir()):
        if not force:
            raise ConfigError(
                "the output folder is not empty; use a new one or --force to replace its generated pages",
                location=Location(file=str(out)),
            )
        for sub in GENERATED_DIRS:
            if (out / sub).is_dir():
                shutil.rmtree(out / sub)
    out.mkdir(parents=True, exist_ok=True)


def clear_overlays(overlays_dir: Path) -> None:
    """Remove previously written ``API_*.md`` overlays (nothing else) from ``overlays_dir``."""
    if overlays_dir.is_dir():
        for path in overlays_dir.glob("API_*.md"):
            path.unlink()


def build_doc_set(apis: int | None, seed: int) -> DocSet:
    """The curated sample bank when ``apis`` is None, otherwise a generated set of ``apis`` APIs."""
    return sample_bank() if apis is None else generate_doc_set(apis, seed)


def write_docs(
    doc: DocSet,
    out: Path,
    *,
    overlays_dir: Path | None = None,
    force: bool = False,
    advance: Callable[[int], None] | None = None,
) -> tuple[WriteStats, int]:
    """Write ``doc`` into ``out``, overlays of its APIs into ``overlays_dir``; return (pages, overlays)."""
    prepare_out_dir(out, force)
    stats = write_doc_set(doc, out, advance)
    overlays = 0
    if overlays_dir is not None:
        clear_overlays(overlays_dir)
        overlays = write_overlays(overlays_dir, {a.name for a in doc.apis})
    return stats, overlays


def write_sample_bank(
    docs_dir: Path = SAMPLE_DOCS, overlays_dir: Path | None = SAMPLE_OVERLAYS
) -> WriteStats:
    """Regenerate the committed sample bank (``examples/bank/docs`` and ``examples/bank/overlays``)."""
    stats, _ = write_docs(sample_bank(), docs_dir, overlays_dir=overlays_dir, force=True)
    return stats


__all__ = ["build_doc_set", "page_count", "prepare_out_dir", "write_docs", "write_sample_bank"]
