"""The sample bank's fixed facts, table layout and the row-building state its generators share."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from apiatlas.samples.bank_ledger import LedgerEvent

BANK_DATE = date(2026, 3, 31)
"""The bank's operational day: every "today" of the sample data (never ``now()``)."""
SEED = 20260331
CLIENT_COUNT = 320
IVANOV_COUNT = 15
HISTORY_DAYS = 180
BANK_BIK = "044525999"
GENERATOR_VERSION = "1"
MIKHALOV = ("Михалов", "Андрей", "Петрович", date(1978, 5, 14))


def _columns(names: str) -> tuple[str, ...]:
    return tuple(names.split())


TABLE_COLUMNS: dict[str, tuple[str, ...]] = {
    "dataset": _columns("key value"),
    "oper_day": _columns("oper_date"),
    "branch": _columns("branch_code branch_name city"),
    "currency": _columns("currency_code iso_alpha currency_name"),
    "currency_rate": _columns("currency_code rate_date nominal rate"),
    "person": _columns(
        "person_id sur_name first_name patronymic birth_date gender inn phone email resident_flag "
        "created_date"
    ),
    "person_doc": _columns("doc_id person_id doc_type doc_series doc_number issue_date issued_by"),
    "address": _columns("address_id person_id addr_type post_code city street house flat full_address"),
    "account": _columns(
        "account_id owner_id acc_number currency_code acc_type branch_code open_date close_date purpose"
    ),
    "account_turn": _columns("turn_id account_id turn_date direction amount purpose"),
    "account_rest": _columns("account_id rest_date rest"),
    "security": _columns(
        "security_id isin security_name issuer_name sec_type face_value currency_code maturity_date"
    ),
    "deal_security": _columns(
        "deal_security_id deal_number deal_date direction security_id quantity price amount currency_code "
        "account_id"
    ),
    "deposit": _columns(
        "deposit_id person_id contract_number product_name open_date end_date close_date amount rate "
        "currency_code account_id capitalization_flag"
    ),
    "card": _columns("card_id account_id card_mask exp_date card_status"),
}
"""Tables in load order (foreign keys first) with the column order of their generated rows."""

Row = tuple[object, ...]
WINDOW_START = BANK_DATE - timedelta(days=HISTORY_DAYS - 1)
FOREIGN_ISSUERS = (
    "Министерство внутренних дел Республики Беларусь",
    "Миграционная служба Республики Казахстан",
    "Государственная миграционная служба Армении",
)
PURCHASES = (
    "Оплата покупки по карте",
    "Перевод по номеру телефона",
    "Оплата ЖКУ",
    "Снятие наличных в банкомате",
    "Оплата мобильной связи",
    "Оплата услуг интернет-магазина",
)


def years_after(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def money(kopecks: int) -> Decimal:
    return Decimal(kopecks).scaleb(-2)


@dataclass
class BankData:
    """Generated rows per table (column order as in ``TABLE_COLUMNS``)."""

    rows: dict[str, list[Row]] = field(default_factory=lambda: {t: [] for t in TABLE_COLUMNS})

    def counts(self) -> dict[str, int]:
        return {t: len(r) for t, r in self.rows.items()}


@dataclass
class AccountDraft:
    account_id: int
    owner_id: int
    currency: str
    acc_type: str
    open_date: date
    close_date: date | None
    events: list[LedgerEvent] = field(default_factory=list)


class GeneratorState:
    """Seeded random source, id counters and the rows produced so far."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.data = BankData()
        self.ids = {
            "person": 1_000_000,
            "doc": 1_500_000,
            "address": 1_700_000,
            "account": 2_000_000,
            "security": 3_000_000,
            "deal": 3_500_000,
            "deposit": 4_000_000,
            "card": 5_000_000,
        }
        self.accounts: list[AccountDraft] = []
        self.used_inns: set[str] = set()
        self.used_phones: set[str] = set()
        self.securities: list[tuple[int, str, Decimal]] = []  # (id, type, base price in kopecks)

    def next_id(self, kind: str) -> int:
        self.ids[kind] += 1
        return self.ids[kind]

    def day_between(self, start: date, end: date) -> date:
        return start + timedelta(days=self.rng.randint(0, max((end - start).days, 0)))

    def add(self, table: str, row: Row) -> None:
        self.data.rows[table].append(row)
