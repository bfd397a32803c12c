"""docs/architecture.md matches the code: the files it names exist, its pass table is PASSES in order, its
tool list is the registry's modules and the README's development section points to it."""

from __future__ import annotations

import re
from pathlib import Path

from apiatlas.passes import PASSES
from apiatlas.server.tools import TOOLS

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
# a backticked file path (``sources/format.py``, ``src/apiatlas/passes/``), placeholders like <kind> left out
NAMED_PATH = re.compile(r"`((?:[\w.-]+/)*[\w.-]+\.py|(?:src/apiatlas|docs|tests)/[\w./-]*)`")
PASS_ROW = re.compile(r"^\| (\d+) \| (\w+) \| `passes/(\w+)\.py` \|", re.MULTILINE)
PACKAGE = REPO / "src" / "apiatlas"
ROOTS = (
    REPO,
    PACKAGE,
    *(PACKAGE / layer for layer in ("server", "executors", "sources")),
)  # a file named in its layer's row


def test_every_file_the_page_names_exists() -> None:
    named = sorted(set(NAMED_PATH.findall(DOC)))
    assert len(named) > 20
    missing = [p for p in named if not any((root / p).exists() for root in ROOTS)]
    assert missing == []


def test_the_pass_table_is_the_pass_list_in_order() -> None:
    rows = PASS_ROW.findall(DOC)
    assert [int(n) for n, _, _ in rows] == list(range(1, len(PASSES) + 1))
    assert [(name, module) for _, name, module in rows] == [(p.__name__, p.__name__) for p in PASSES]


def test_the_tool_modules_listed_are_the_registry_s() -> None:
    tree = DOC.split("server/tools/\n", 1)[1].split("```", 1)[0]
    listed = set(re.findall(r"(\w+)\.py", tree)) - {"__init__", "common", "examples", "results"}
    assert listed == {spec.handler.__module__.rsplit(".", 1)[1] for spec in TOOLS}


def test_the_readme_development_section_points_to_the_page() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    development = readme.split("## Development", 1)[1].split("\n## ", 1)[0]
    assert "docs/architecture.md" in development
