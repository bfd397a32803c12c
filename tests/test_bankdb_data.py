"""The sample bank's generated data: deterministic, shaped as docs/sample-bank.md says, consistent."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from apiatlas.samples import bank_names
from apiatlas.samples.bank_data import (
    BANK_BIK,
    BANK_DATE,
    CLIENT_COUNT,
    SEED,
    TABLE_COLUMNS,
    BankData,
    generate_bank_data,
)
from apiatlas.samples.bank_ledger import Ledger, LedgerEvent
from apiatlas.samples.bank_numbers import (
    account_number,
    is_valid_account_number,
    is_valid_person_inn,
    isin,
    isin_check_digit,
    person_inn,
)


@pytest.fixture(scope="module")
def data() -> BankData:
    return generate_bank_data()


def table(data: BankData, name: str) -> list[dict[str, Any]]:
    return [dict(zip(TABLE_COLUMNS[name], row, strict=True)) for row in data.rows[name]]


def test_same_seed_same_rows_other_seed_other_rows(data: BankData) -> None:
    assert generate_bank_data(SEED).rows == data.rows
    other = generate_bank_data(SEED + 1)
    assert other.rows["person"] != data.rows["person"]


def test_rows_match_their_table_columns(data: BankData) -> None:
    for name, rows in data.rows.items():
        assert all(len(row) == len(TABLE_COLUMNS[name]) for row in rows), name


def test_client_population(data: BankData) -> None:
    persons = table(data, "person")
    assert len(persons) == CLIENT_COUNT >= 300
    surnames = Counter(p["sur_name"] for p in persons)
    assert surnames["Иванов"] == 15
    assert surnames["Михалов"] == 1
    ivanovs = [p for p in persons if p["sur_name"] == "Иванов"]
    assert len({(p["first_name"], p["patronymic"], p["birth_date"]) for p in ivanovs}) == 15
    assert len({p["birth_date"] for p in ivanovs}) == 15
    assert len({p["person_id"] for p in persons}) == len(persons)


def test_mikhalov_has_two_accounts_deals_deposit_address_card(data: BankData) -> None:
    (mikhalov,) = [p for p in table(data, "person") if p["sur_name"] == "Михалов"]
    assert (mikhalov["first_name"], mikhalov["patronymic"]) == ("Андрей", "Петрович")
    accounts = {a["account_id"] for a in table(data, "account") if a["owner_id"] == mikhalov["person_id"]}
    assert len(accounts) == 2
    deals = Counter(d["account_id"] for d in table(data, "deal_security") if d["account_id"] in accounts)
    assert len(deals) == 1 and max(deals.values()) >= 5
    assert any(d["person_id"] == mikhalov["person_id"] for d in table(data, "deposit"))
    assert any(a["person_id"] == mikhalov["person_id"] for a in table(data, "address"))
    assert any(c["account_id"] in accounts for c in table(data, "card"))


def test_every_client_has_an_account_and_every_reference_resolves(data: BankData) -> None:
    person_ids = {p["person_id"] for p in table(data, "person")}
    accounts = table(data, "account")
    assert {a["owner_id"] for a in accounts} == person_ids
    account_ids = {a["account_id"] for a in accounts}
    security_ids = {s["security_id"] for s in table(data, "security")}
    assert all(
        d["account_id"] in account_ids and d["security_id"] in security_ids
        for d in table(data, "deal_security")
    )
    assert all(c["account_id"] in account_ids for c in table(data, "card"))
    assert all(
        d["account_id"] in account_ids and d["person_id"] in person_ids for d in table(data, "deposit")
    )


def test_identifiers_carry_valid_check_digits(data: BankData) -> None:
    assert all(is_valid_account_number(BANK_BIK, a["acc_number"]) for a in table(data, "account"))
    inns = [p["inn"] for p in table(data, "person") if p["inn"] is not None]
    assert inns and all(is_valid_person_inn(i) for i in inns)
    assert len(set(inns)) == len(inns)
    for sec in table(data, "security"):
        code = str(sec["isin"])
        assert code.startswith("RU000A") and isin_check_digit(code[:11]) == code[11]


def test_balances_follow_turnovers_and_never_go_negative(data: BankData) -> None:
    turns: dict[tuple[object, object], Decimal] = defaultdict(Decimal)
    for t in table(data, "account_turn"):
        sign = 1 if t["direction"] == "C" else -1
        turns[(t["account_id"], t["turn_date"])] += sign * t["amount"]
    balance: dict[object, Decimal] = defaultdict(Decimal)
    rests = sorted(table(data, "account_rest"), key=lambda r: (r["account_id"], r["rest_date"]))
    for r in rests:
        balance[r["account_id"]] += turns.get((r["account_id"], r["rest_date"]), Decimal(0))
        assert balance[r["account_id"]] == r["rest"] >= 0
    assert all(r["rest_date"] <= BANK_DATE for r in rests)
    closed = {a["account_id"]: a["close_date"] for a in table(data, "account") if a["close_date"]}
    last = {r["account_id"]: r for r in rests}
    assert closed and all(last[a]["rest"] == 0 for a in closed)


def test_deals_are_booked_as_turnovers(data: BankData) -> None:
    purposes = {str(t["purpose"]) for t in table(data, "account_turn")}
    for deal in table(data, "deal_security"):
        assert any(str(deal["deal_number"]) in p for p in purposes)
        assert deal["amount"] == (deal["price"] * deal["quantity"]).quantize(Decimal("0.01"))


def test_ledger_tops_up_mandatory_debits_and_skips_optional_ones() -> None:
    ledger = Ledger(first_turn_id=0)
    day = date(2026, 1, 10)
    ledger.post(
        1,
        [
            LedgerEvent(day, "C", 100, "in"),
            LedgerEvent(day, "D", 500, "shop", optional=True),
            LedgerEvent(day, "D", 300, "deal"),
        ],
        close_date=date(2026, 1, 12),
    )
    assert [(t[3], t[4], t[5]) for t in ledger.turns] == [
        ("C", 100, "in"),
        ("C", 200, "Пополнение счёта"),
        ("D", 300, "deal"),
    ]
    assert ledger.rests == [(1, day, 0), (1, date(2026, 1, 12), 0)]


def test_check_digit_functions_against_known_numbers() -> None:
    assert isin("US037833100") == "US0378331005"  # a published ISIN
    assert is_valid_person_inn(person_inn("5001234567"))
    assert not is_valid_person_inn("500123456700")
    number = account_number(BANK_BIK, "40817", "810", "0001", 42)
    assert is_valid_account_number(BANK_BIK, number)
    typo = number[:15] + str((int(number[15]) + 1) % 10) + number[16:]
    assert not is_valid_account_number(BANK_BIK, typo)
    with pytest.raises(ValueError):
        isin_check_digit("RU000A")


def test_random_surname_pool_cannot_make_more_ivanovs_or_mikhalovs() -> None:
    forms = set(bank_names.SURNAMES) | {bank_names.female_surname(s) for s in bank_names.SURNAMES}
    assert not forms & {"Иванов", "Михалов", "Михалова"}
