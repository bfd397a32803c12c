"""The committed sample bank: core contracts of docs/sample-bank.md, format, encoding, funnel, overlays."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from selectolax.lexbor import LexborNode as Node

from apiatlas.samples.docs_writer import write_sample_bank

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "examples" / "bank" / "docs"
OVERLAYS = ROOT / "examples" / "bank" / "overlays"
SAMPLE_MD = ROOT / "docs" / "sample-bank.md"
SERVICES = DOCS / "BObjects" / "Services"


# --- ad-hoc reading of the pages (the production parser lives elsewhere) -------------------------


def norm(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split()).rstrip(":").strip()


def load(path: Path) -> HTMLParser:
    return HTMLParser(path.read_bytes().decode("cp1251"))


def label_rows(tree: HTMLParser) -> dict[str, Node]:
    table = tree.css_first("table")
    assert table is not None
    rows: dict[str, Node] = {}
    for tr in table.css("tr"):
        tds = tr.css("td")
        if len(tds) >= 2:
            rows[norm(tds[0].text()).lower()] = tds[1]
    return rows


def sections(tree: HTMLParser) -> dict[str, list[dict[str, str]]]:
    """Tables after a ``<p><b>heading</b></p>``, as lists of rows keyed by header text."""
    out: dict[str, list[dict[str, str]]] = {}
    heading = None
    for node in tree.css("p, table"):
        if node.tag == "p":
            heading = norm(node.text())
            continue
        if heading is None:
            continue
        trs = node.css("tr")
        headers = [norm(td.text()) for td in trs[0].css("td")]
        out[heading] = [
            dict(zip(headers, (norm(td.text()) for td in tr.css("td")), strict=True)) for tr in trs[1:]
        ]
        heading = None
    return out


def pick(row: dict[str, str], *names: str) -> str:
    for n in names:
        if n in row:
            return row[n]
    raise KeyError(names)


TRUE = {"да", "yes", "1", "+"}


# --- the contract table of docs/sample-bank.md ------------------------------------------------------


@dataclass
class Contract:
    api: str
    obj: str
    params: list[tuple[str, str, bool]] = field(default_factory=list)
    in_tables: dict[str, list[str]] = field(default_factory=dict)
    out_tables: dict[str, list[str]] = field(default_factory=dict)


def split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_table(text: str, known: dict[str, list[str]], types: dict[str, str]) -> tuple[str, list[str]]:
    m = re.match(r"(pAPI_\w+)(\((.*)\))?", text.strip())
    assert m, text
    name = m.group(1)
    if not m.group(2):
        return name, known[name]
    cols = []
    for item in split_top(m.group(3)):
        item = item.split("—")[0].strip()
        col, *typ = item.replace("*", "").split()
        if typ:
            types[col] = typ[0]
        cols.append(f"{col} {types[col]}")
    known[name] = cols
    return name, cols


def contracts() -> list[Contract]:
    known: dict[str, list[str]] = {}
    types: dict[str, str] = {}
    result = []
    for line in SAMPLE_MD.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("API_"):
            continue
        c = Contract(cells[0], cells[1])
        for item in split_top(cells[2]):
            if item.startswith("@"):
                name, typ = item[1:].split()
                c.params.append((name.rstrip("*"), typ, name.endswith("*")))
                types.setdefault(name.rstrip("*"), typ)
            else:
                name, cols = parse_table(item.removeprefix("in table "), known, types)
                c.in_tables[name] = cols
        for item in split_top(cells[3]):
            name, cols = parse_table(item, known, types)
            c.out_tables[name] = cols
        result.append(c)
    return result


CONTRACTS = contracts()


def test_contract_table_was_read() -> None:
    assert len(CONTRACTS) == 16
    assert CONTRACTS[0].params[0] == ("SurName", "DSVARFULLNAME", True)


def table_columns(api: str, table: str, direction: str) -> list[str]:
    tree = load(SERVICES / "Tables" / f"T_{api}_{table}.htm")
    rows = label_rows(tree)
    assert norm(rows["api"].text()) == api
    assert norm(rows["направление"].text()) == direction
    cols = sections(tree)["Колонки"]
    return [f"{r['Колонка']} {pick(r, 'Тип', 'Тип данных')}" for r in cols]


@pytest.mark.parametrize("contract", CONTRACTS, ids=lambda c: c.api)
def test_core_api_page_matches_the_documented_contract(contract: Contract) -> None:
    tree = load(SERVICES / f"{contract.api}.htm")
    rows = label_rows(tree)
    assert norm(rows["название"].text()) == contract.api
    assert norm(rows["бизнес-объект"].text()) == contract.obj
    assert norm(rows["виза га"].text()) == "Ok"
    assert norm(rows["реализовано"].text()).lower() in TRUE
    assert norm(rows["запрещено"].text()).lower() not in TRUE
    assert "Сценарии использования" in rows["подробное описание"].text()
    secs = sections(tree)
    params = [
        (
            pick(r, "Параметр", "Имя").removeprefix("@"),
            pick(r, "Тип", "Тип данных"),
            pick(r, "Обязательный", "Обяз.").lower() in TRUE,
        )
        for r in secs.get("Входные параметры", [])
    ]
    assert params == contract.params
    assert [r["Таблица"] for r in secs.get("Входные таблицы", [])] == list(contract.in_tables)
    assert [r["Таблица"] for r in secs.get("Выходные таблицы", [])] == list(contract.out_tables)
    for name, cols in contract.in_tables.items():
        assert table_columns(contract.api, name, "Входная") == cols
    for name, cols in contract.out_tables.items():
        assert table_columns(contract.api, name, "Выходная") == cols
    assert secs.get("Коды ошибок"), "every core API documents its error codes"


def test_owner_id_description_names_person_id() -> None:
    tree = load(SERVICES / "Tables" / "T_API_Acc_FindListByListOwnerID_pAPI_Account_OwnerID.htm")
    (row,) = sections(tree)["Колонки"]
    assert row["Колонка"] == "OwnerID" and "PersonID" in row["Описание"]


def test_object_pages_list_their_methods_and_membership_is_not_by_prefix() -> None:
    members: dict[str, str] = {}
    for bo in sorted((DOCS / "BObjects").glob("BO_*.htm")):
        tree = load(bo)
        key = norm(label_rows(tree)["сокращение"].text())
        for row in sections(tree)["Методы"]:
            members[row["Имя"]] = key
    api_pages = sorted(SERVICES.glob("API_*.htm"))
    assert len(members) == len(api_pages) >= 250
    assert len(list((DOCS / "BObjects").glob("BO_*.htm"))) >= 25
    for page in api_pages:
        assert norm(label_rows(load(page))["бизнес-объект"].text()) == members[page.stem]
    odd = [api for api, key in members.items() if not api.startswith(f"API_{key}_")]
    assert "API_DealSecurity_FindListByID" in odd and members["API_DealSecurity_FindListByID"] == "DSec"


def test_every_link_resolves_and_every_page_is_windows_1251() -> None:
    pages = sorted(DOCS.rglob("*.htm"))
    for page in pages:
        raw = page.read_bytes()
        text = raw.decode("cp1251")
        assert "charset=windows-1251" in text.lower()
        assert re.search("[А-Яа-я]", text), page
        with pytest.raises(UnicodeDecodeError):
            raw.decode("utf-8")
        for a in HTMLParser(text).css("a"):
            assert (page.parent / a.attributes["href"]).resolve().is_file(), (page, a.attributes["href"])  # type: ignore[operator]


def test_markup_is_loose_in_the_documented_ways() -> None:
    blob = b"".join(p.read_bytes() for p in sorted(DOCS.rglob("*.htm"))).decode("cp1251")
    for habit in (
        "<TD>",
        "<td>",
        "&nbsp;",
        "<br>",
        "<BR>",
        "Тип данных",
        "Обяз.",
        "<b>Имя</b>",
        "<b>Параметр</b>",
    ):
        assert habit in blob or habit.upper() in blob, habit
    assert re.search(r"<td>[^<]+<td>", blob, re.IGNORECASE), "some cells are never closed"


def test_domain_types_page_covers_every_type_used() -> None:
    tree = load(DOCS / "Types" / "DomainTypes.htm")
    h2 = tree.css_first("h2")
    assert h2 is not None and norm(h2.text()) == "Домены"
    trs = tree.css("table tr")
    headers = [norm(td.text()) for td in trs[0].css("td")]
    table = [dict(zip(headers, (norm(td.text()) for td in tr.css("td")), strict=True)) for tr in trs[1:]]
    declared = {r["Домен"]: r["Базовый тип"] for r in table}
    assert len(declared) >= 30
    used = set(
        re.findall(r">(DS[A-Z0-9]+)<", b"".join(p.read_bytes() for p in DOCS.rglob("*.htm")).decode("cp1251"))
    )
    assert used <= set(declared), used - set(declared)
    assert declared["DSIDENTIFIER"].startswith("numeric")


def funnel_counts() -> list[int]:
    counts = [0, 0, 0, 0, 0]
    for page in SERVICES.glob("API_*.htm"):
        rows = label_rows(load(page))
        counts[0] += 1
        if not re.match(r"API_[A-Za-z]+_(Find|Get|Check|Brows)", page.stem):
            continue
        counts[1] += 1
        if norm(rows["виза га"].text()) != "Ok":
            continue
        counts[2] += 1
        if norm(rows["реализовано"].text()).lower() not in TRUE:
            continue
        counts[3] += 1
        if norm(rows["запрещено"].text()).lower() not in TRUE:
            counts[4] += 1
    return counts


def test_funnel_drops_apis_at_every_stage_and_keeps_a_realistic_share() -> None:
    total, named, approved, implemented, kept = funnel_counts()
    assert total > named > approved > implemented > kept
    assert 0.35 <= kept / total <= 0.45


def test_overlays_are_well_formed_and_match_existing_apis() -> None:
    files = sorted(OVERLAYS.glob("API_*.md"))
    assert len(files) >= 12
    apis = {p.stem for p in SERVICES.glob("API_*.htm")}
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert text.startswith(f"# {f.stem}\n") and f.stem in apis
        assert "## Когда использовать" in text and "## Важно" in text
        for producer in re.findall(r"← (API_\w+)\.", text):
            assert producer in apis
    assert "Отличие от API_Acc_FindByID" in (OVERLAYS / "API_Acc_GetRest.md").read_text(encoding="utf-8")


def test_committed_sample_equals_what_the_code_writes(tmp_path: Path) -> None:
    docs, overlays = tmp_path / "docs", tmp_path / "overlays"
    write_sample_bank(docs, overlays)
    for fresh, committed in ((docs, DOCS), (overlays, OVERLAYS)):
        new = {p.relative_to(fresh): p.read_bytes() for p in fresh.rglob("*") if p.is_file()}
        old = {p.relative_to(committed): p.read_bytes() for p in committed.rglob("*") if p.is_file()}
        assert sorted(new) == sorted(old), (
            "regenerate with: apiatlas gen-docs examples/bank/docs --sample ..."
        )
        changed = [str(k) for k in new if new[k] != old[k]]
        assert not changed, changed[:5]
