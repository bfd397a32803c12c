"""Generation of the sample bank's products: accounts and their turnovers, cards, deals, deposits."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from apiatlas.samples import bank_names as names
from apiatlas.samples.bank_ledger import Ledger, LedgerEvent
from apiatlas.samples.bank_numbers import account_number
from apiatlas.samples.bank_rows import (
    BANK_BIK,
    BANK_DATE,
    PURCHASES,
    WINDOW_START,
    AccountDraft,
    GeneratorState,
    money,
)


class ProductGenerator(GeneratorState):
    """Opens accounts and products for persons; ``ledger()`` turns their events into turns and rests."""

    def account(
        self,
        owner_id: int,
        currency: str,
        acc_type: str,
        branch: str,
        opened: date,
        closed: date | None = None,
        purpose: str | None = None,
    ) -> AccountDraft:
        account_id = self.next_id("account")
        balance = {"CUR": "40817", "CARD": "40817", "DEP": "42306", "BRK": "30601"}[acc_type]
        number = account_number(BANK_BIK, balance, currency, branch, account_id % 10**7)
        default_purpose = {
            "CUR": "Текущий счёт физического лица",
            "CARD": "Счёт банковской карты",
            "DEP": "Счёт по вкладу",
            "BRK": "Брокерский счёт: расчёты по сделкам с ценными бумагами",
        }
        self.add(
            "account",
            (
                account_id,
                owner_id,
                number,
                currency,
                acc_type,
                branch,
                opened,
                closed,
                purpose or default_purpose[acc_type],
            ),
        )
        acc = AccountDraft(account_id, owner_id, currency, acc_type, opened, closed)
        self.accounts.append(acc)
        return acc

    def random_accounts(self, person_id: int, city: str, *, force_extras: bool = False) -> None:
        rng, branch = self.rng, names.CITIES[city][2]
        opened = self.day_between(date(2014, 1, 1), BANK_DATE - timedelta(days=60))
        main = self.account(person_id, "810", "CARD" if rng.random() < 0.6 else "CUR", branch, opened)
        self.everyday_events(main, salary=rng.random() < 0.7)
        if main.acc_type == "CARD" or rng.random() < 0.3:
            self.cards(main)
        if rng.random() < 0.2:
            fx = self.account(
                person_id,
                rng.choice(("840", "978", "156")),
                "CUR",
                branch,
                self.day_between(opened, BANK_DATE - timedelta(days=30)),
            )
            fx.events.append(
                LedgerEvent(fx.open_date, "C", rng.randint(50_000, 2_000_000), "Зачисление валюты")
            )
        if force_extras or rng.random() < 0.08:
            closed_open = self.day_between(date(2012, 1, 1), BANK_DATE - timedelta(days=400))
            closed = self.account(
                person_id,
                "810",
                "CUR",
                branch,
                closed_open,
                self.day_between(closed_open + timedelta(days=30), BANK_DATE - timedelta(days=5)),
            )
            closed.events.append(
                LedgerEvent(closed_open, "C", rng.randint(10_000, 5_000_000), "Зачисление при открытии")
            )
        if force_extras or rng.random() < 0.12:
            broker = self.account(
                person_id, "810", "BRK", branch, self.day_between(opened, BANK_DATE - timedelta(days=90))
            )
            self.deals(broker, rng.randint(2, 10))
        if rng.random() < 0.2:
            self.deposit(person_id, branch)

    def mikhalov_accounts(self, person_id: int) -> None:
        current = self.account(person_id, "810", "CUR", "0001", date(2019, 3, 12))
        self.everyday_events(current, salary=True)
        self.cards(current)
        current.events.append(LedgerEvent(current.open_date, "C", 250_000_000, "Перевод собственных средств"))
        self.deals(current, 7)
        self.deposit(
            person_id,
            "0001",
            opened=date(2025, 10, 15),
            months=12,
            kopecks=150_000_000,
            rate=Decimal("18.5000"),
            capitalization=1,
            product=names.DEPOSIT_PRODUCTS[2],
        )

    def everyday_events(self, acc: AccountDraft, *, salary: bool) -> None:
        rng = self.rng
        acc.events.append(
            LedgerEvent(acc.open_date, "C", rng.randint(100_000, 30_000_000), "Зачисление при открытии")
        )
        monthly = rng.randint(3_000_000, 25_000_000)
        day = max(acc.open_date + timedelta(days=1), WINDOW_START)
        while day <= BANK_DATE:
            if salary and day.day in (5, 20):
                acc.events.append(LedgerEvent(day, "C", monthly // 2, "Заработная плата"))
            if rng.random() < 0.3:
                acc.events.append(
                    LedgerEvent(
                        day, "D", rng.randint(20_000, 1_500_000), rng.choice(PURCHASES), optional=True
                    )
                )
            day += timedelta(days=1)

    def cards(self, acc: AccountDraft) -> None:
        rng = self.rng
        issued = max(acc.open_date, BANK_DATE - timedelta(days=rng.randint(30, 1500)))
        if issued < BANK_DATE - timedelta(days=1100) and rng.random() < 0.7:
            self.card(acc, issued, "CLS")
            issued = issued + timedelta(days=1095)
        self.card(acc, issued, "BLK" if rng.random() < 0.05 else "ACT")

    def card(self, acc: AccountDraft, issued: date, status: str) -> None:
        exp_month = date(issued.year + 3, issued.month, 1)
        exp = date(exp_month.year + exp_month.month // 12, exp_month.month % 12 + 1, 1) - timedelta(days=1)
        if exp <= BANK_DATE:
            status = "CLS"
        mask = self.rng.choice(("220015", "220070", "220220")) + "******" + f"{self.rng.randint(0, 9999):04d}"
        self.add("card", (self.next_id("card"), acc.account_id, mask, exp, status))

    def deals(self, acc: AccountDraft, count: int) -> None:
        rng, holdings = self.rng, dict[int, int]()
        start = max(acc.open_date + timedelta(days=1), WINDOW_START)
        days = sorted(self.day_between(start, BANK_DATE - timedelta(days=1)) for _ in range(count))
        for n, day in enumerate(days):
            held = [s for s in self.securities if holdings.get(s[0], 0) > 0]
            sell = bool(held) and n > 0 and rng.random() < 0.35
            sec_id, sec_type, base = rng.choice(held if sell else self.securities)
            quantity = (
                rng.randint(1, holdings[sec_id])
                if sell
                else rng.randint(1, 50 if sec_type != "SHARE" else 500)
            )
            holdings[sec_id] = holdings.get(sec_id, 0) + (-quantity if sell else quantity)
            price = (base * Decimal(rng.uniform(0.92, 1.08))).quantize(Decimal(1)).scaleb(-2)
            amount = (price * quantity).quantize(Decimal("0.01"))
            deal_id = self.next_id("deal")
            number = f"DS-{day:%Y%m%d}-{deal_id % 100_000:05d}"
            self.add(
                "deal_security",
                (
                    deal_id,
                    number,
                    day,
                    "SELL" if sell else "BUY",
                    sec_id,
                    Decimal(quantity),
                    price,
                    amount,
                    "810",
                    acc.account_id,
                ),
            )
            kopecks = int(amount * 100)
            purpose = f"{'Продажа' if sell else 'Покупка'} ценных бумаг по сделке {number}"
            acc.events.append(LedgerEvent(day, "C" if sell else "D", kopecks, purpose))

    def deposit(
        self,
        person_id: int,
        branch: str,
        *,
        opened: date | None = None,
        months: int | None = None,
        kopecks: int | None = None,
        rate: Decimal | None = None,
        capitalization: int | None = None,
        product: str | None = None,
    ) -> None:
        rng = self.rng
        opened = opened or self.day_between(BANK_DATE - timedelta(days=1100), BANK_DATE - timedelta(days=20))
        months = rng.choice((0, 3, 6, 12, 12, 24)) if months is None else months  # 0: on demand
        kopecks = kopecks or rng.randint(5_000_000, 300_000_000)
        rate = rate or Decimal(rng.randint(800, 2100)).scaleb(-2).quantize(Decimal("0.0001"))
        capitalization = rng.randint(0, 1) if capitalization is None else capitalization
        end = opened + timedelta(days=round(months * 30.44)) if months else None
        closed = end if end is not None and end <= BANK_DATE else None
        deposit_id = self.next_id("deposit")
        contract = f"ВК-{opened:%Y}/{deposit_id % 100_000:05d}"
        acc = self.account(
            person_id, "810", "DEP", branch, opened, closed, f"Счёт по вкладу, договор {contract}"
        )
        acc.events.append(LedgerEvent(opened, "C", kopecks, f"Поступление во вклад по договору {contract}"))
        if capitalization:
            month_day, balance = opened, kopecks
            while True:
                month_day += timedelta(days=30)
                if month_day > (closed or BANK_DATE):
                    break
                interest = int(balance * rate / 1200)
                balance += interest
                acc.events.append(LedgerEvent(month_day, "C", interest, "Капитализация процентов по вкладу"))
        self.add(
            "deposit",
            (
                deposit_id,
                person_id,
                contract,
                product or rng.choice(names.DEPOSIT_PRODUCTS),
                opened,
                end,
                closed,
                money(kopecks),
                rate,
                "810",
                acc.account_id,
                capitalization,
            ),
        )

    def ledger(self) -> None:
        ledger = Ledger(first_turn_id=9_000_000)
        for acc in self.accounts:
            ledger.post(acc.account_id, acc.events, close_date=acc.close_date)
        self.data.rows["account_turn"] = [(*t[:4], money(t[4]), t[5]) for t in ledger.turns]
        self.data.rows["account_rest"] = [(a, d, money(r)) for a, d, r in ledger.rests]
