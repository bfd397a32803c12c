"""General code holds no development set's vocabulary: apiatlas serves catalogs nobody here has seen.

Every string literal (docstrings included) and every data file under ``src/apiatlas`` is read; a
development set's domain words (TMDB's movies and seasons, Stripe's charges, pagila's films, a cluster's
pods) may appear only in ``evals/`` and ``samples/``, and the bank's names and patterns (``PersonID``,
``^API_``, Find/Get/Check/Brows, its Russian business words) only there and in ``sources/bank_html/``.
What a catalog needs is derived from it at build time or given by its config and examples.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "apiatlas"

# the development sets' domains: the words that named them in general code before issue 17
DOMAIN_WORDS = re.compile(
    r"\b(movies?|films?|tv|seasons?|episodes?|cast|crew|actors?|actress|directors?|"
    r"charges?|invoices?|subscriptions?|pods?|rentals?)\b",
    re.IGNORECASE,
)
# the sample bank's names, patterns and business words
BANK_WORDS = re.compile(
    r"PersonID|OwnerID|ClientID|\^API_|\bAPI_[A-Z][A-Za-z]*_|Find\|Get|Brows\b|"
    r"Михалов|Иванов|сч[её]т|клиент|остат(?:ок|к)|вклад|ценн(?:ые|ых|ым) бумаг",
    re.IGNORECASE,
)
DOMAIN_ALLOWED = ("evals", "samples")
BANK_ALLOWED = (*DOMAIN_ALLOWED, "sources/bank_html")
DATA_SUFFIXES = {".json", ".yaml", ".yml", ".txt", ".tsv", ".csv", ".md", ".sql"}


def _allowed(path: Path, folders: tuple[str, ...]) -> bool:
    relative = path.relative_to(PACKAGE).as_posix()
    return any(relative == f or relative.startswith(f + "/") for f in folders)


def _literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal of a Python file, docstrings and f-string parts included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _texts(path: Path) -> list[tuple[int, str]]:
    if path.suffix == ".py":
        return _literals(path)
    return list(enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1))


def _findings(pattern: re.Pattern[str], allowed: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if not path.is_file() or (path.suffix != ".py" and path.suffix not in DATA_SUFFIXES):
            continue
        if _allowed(path, allowed):
            continue
        for line, text in _texts(path):
            for match in pattern.finditer(text):
                found.append(f"{path.relative_to(PACKAGE)}:{line}: {match.group(0)!r}")
    return found


def test_no_development_domain_words_in_general_code() -> None:
    found = _findings(DOMAIN_WORDS, DOMAIN_ALLOWED)
    assert not found, "domain words of a development set in general code:\n" + "\n".join(found)


def test_bank_names_and_patterns_live_with_the_bank() -> None:
    found = _findings(BANK_WORDS, BANK_ALLOWED)
    assert not found, "the bank's names or patterns outside sources/bank_html:\n" + "\n".join(found)


def test_the_check_sees_a_literal(tmp_path: Path) -> None:
    """The reader finds words in docstrings and f-strings, so the two checks above can fail."""
    sample = tmp_path / "m.py"
    sample.write_text('"""Find the movies."""\nx = f"API_Acc_{1}"\n', encoding="utf-8")
    texts = " ".join(text for _line, text in _literals(sample))
    assert DOMAIN_WORDS.search(texts) and BANK_WORDS.search(texts)
