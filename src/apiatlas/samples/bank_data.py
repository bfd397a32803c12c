"""Deterministic (seeded) generation of the sample bank's rows, relative to a fixed operational day."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from apiatlas.samples import bank_names as names
from apiatlas.samples.bank_numbers import isin, person_inn
from apiatlas.samples.bank_products import ProductGenerator
from apiatlas.samples.bank_rows import (
    BANK_BIK,
    BANK_DATE,
    CLIENT_COUNT,
    FOREIGN_ISSUERS,
    GENERATOR_VERSION,
    HISTORY_DAYS,
    IVANOV_COUNT,
    MIKHALOV,
    SEED,
    TABLE_COLUMNS,
    BankData,
    money,
    years_after,
)

__all__ = [
    "BANK_BIK",
    "BANK_DATE",
    "CLIENT_COUNT",
    "GENERATOR_VERSION",
    "IVANOV_COUNT",
    "MIKHALOV",
    "SEED",
    "TABLE_COLUMNS",
    "BankData",
    "generate_bank_data",
]


class _Generator(ProductGenerator):
    # reference data -------------------------------------------------------------------------------
    def reference(self) -> None:
        self.add("oper_day", (BANK_DATE,))
        for branch in names.BRANCHES:
            self.add("branch", branch)
        for code, alpha, title, nominal, start in names.CURRENCIES:
            self.add("currency", (code, alpha, title))
            if code == "810":
                continue
            rate = start
            for offset in range(HISTORY_DAYS + 180):
                day = BANK_DATE - timedelta(days=HISTORY_DAYS + 180 - 1 - offset)
                rate *= 1 + self.rng.uniform(-0.006, 0.006)
                if day.weekday() < 5:
                    self.add("currency_rate", (code, day, nominal, Decimal(f"{rate:.4f}")))
        for i in range(24):
            bond = i % 3 == 2
            sec_id = self.next_id("security")
            body = "RU000A" + "".join(self.rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(5))
            if bond:
                issuer = names.BOND_ISSUERS[i // 3 % len(names.BOND_ISSUERS)]
                title = f"{issuer.split('«')[-1].rstrip('»')} БО-{i:02d}"
                maturity: date | None = date(2027 + i % 8, 1 + i % 12, 15)
                face, base = money(100_000), self.rng.randint(90_000, 103_000)
                sec_type = "OFZ" if issuer.startswith("Минфин") else "BOND"
            else:
                issuer = names.SHARE_ISSUERS[i % len(names.SHARE_ISSUERS)]
                title = (
                    f"{issuer.split('«')[-1].rstrip('»')} ао"
                    if i < 10
                    else f"{issuer.split('«')[-1].rstrip('»')} ап"
                )
                maturity, face, base, sec_type = None, money(100), self.rng.randint(5_000, 500_000), "SHARE"
            self.add("security", (sec_id, isin(body), title, issuer, sec_type, face, "810", maturity))
            self.securities.append((sec_id, sec_type, Decimal(base)))

    # persons ----------------------------------------------------------------------------------------
    def persons(self) -> None:
        slots = self.rng.sample(range(CLIENT_COUNT), IVANOV_COUNT + 1 + 3)
        ivanov_slots, mikhalov_slot, ivanova_slots = slots[:IVANOV_COUNT], slots[IVANOV_COUNT], slots[-3:]
        ivanov_names = [
            *self.rng.sample([n for n in names.MALE_NAMES if n != "Сергей"], IVANOV_COUNT - 2),
            "Сергей",
            "Сергей",
        ]
        for index in range(CLIENT_COUNT):
            if index == mikhalov_slot:
                sur, first, patronymic, birth = MIKHALOV
                person_id = self.person(sur, first, patronymic, "M", birth, city="Москва")
                self.mikhalov_accounts(person_id)
                continue
            if index in ivanov_slots:
                gender, sur = "M", "Иванов"
                first = ivanov_names[ivanov_slots.index(index)]
            elif index in ivanova_slots:
                gender, sur, first = "F", "Иванова", self.rng.choice(names.FEMALE_NAMES)
            else:
                gender = "M" if self.rng.random() < 0.52 else "F"
                male = self.rng.choice(names.SURNAMES)
                sur = male if gender == "M" else names.female_surname(male)
                first = self.rng.choice(names.MALE_NAMES if gender == "M" else names.FEMALE_NAMES)
            patronymic = self.rng.choice(names.PATRONYMICS)[0 if gender == "M" else 1]
            birth = self.day_between(date(1950, 1, 1), date(2005, 12, 31))
            city = self.rng.choices(list(names.CITIES), weights=names.CITY_WEIGHTS)[0]
            person_id = self.person(sur, first, patronymic, gender, birth, city)
            self.random_accounts(person_id, city, force_extras=index == ivanov_slots[0])

    def person(self, sur: str, first: str, patronymic: str, gender: str, birth: date, city: str) -> int:
        rng = self.rng
        person_id = self.next_id("person")
        region, post_prefix, _, issuer = names.CITIES[city]
        inn = None
        if rng.random() < 0.9 or sur == "Михалов":
            while inn is None or inn in self.used_inns:
                inn = person_inn(region + f"{rng.randint(0, 99_999_999):08d}")
            self.used_inns.add(inn)
        phone = None
        while phone is None or phone in self.used_phones:
            phone = f"+79{rng.randint(0, 999_999_999):09d}"
        self.used_phones.add(phone)
        email = (
            f"{names.translit(first)}.{names.translit(sur)}{rng.randint(1, 99)}@example.com"
            if rng.random() < 0.7
            else None
        )
        created = self.day_between(
            max(date(2012, 1, 1), birth + timedelta(days=18 * 366)), BANK_DATE - timedelta(days=90)
        )
        resident = 1 if rng.random() < 0.97 or sur == "Михалов" else 0
        self.add(
            "person", (person_id, sur, first, patronymic, birth, gender, inn, phone, email, resident, created)
        )
        at20, at45 = years_after(birth, 20), years_after(birth, 45)
        issue = min(
            (at45 if at45 < BANK_DATE else at20) + timedelta(days=rng.randint(0, 60)),
            BANK_DATE - timedelta(days=30),
        )
        if resident:
            if at45 < BANK_DATE:  # the passport issued at 20 was replaced at 45; both are returned
                old = at20 + timedelta(days=rng.randint(0, 60))
                self.add(
                    "person_doc",
                    (
                        self.next_id("doc"),
                        person_id,
                        "21",
                        f"{region}{old.year % 100:02d}",
                        f"{rng.randint(100_000, 999_999)}",
                        old,
                        issuer,
                    ),
                )
            self.add(
                "person_doc",
                (
                    self.next_id("doc"),
                    person_id,
                    "21",
                    f"{region}{issue.year % 100:02d}",
                    f"{rng.randint(100_000, 999_999)}",
                    issue,
                    issuer,
                ),
            )
        else:
            self.add(
                "person_doc",
                (
                    self.next_id("doc"),
                    person_id,
                    "10",
                    None,
                    f"{rng.randint(10**8, 10**9 - 1)}",
                    issue,
                    rng.choice(FOREIGN_ISSUERS),
                ),
            )
        self.address(person_id, "REG", city, post_prefix)
        if rng.random() < 0.3 or sur == "Михалов":
            self.address(person_id, "FACT", city, post_prefix)
        if rng.random() < 0.1:
            self.address(person_id, "POST", city, post_prefix)
        return person_id

    def address(self, person_id: int, addr_type: str, city: str, post_prefix: str) -> None:
        rng = self.rng
        post = (post_prefix + f"{rng.randint(0, 99_999):05d}")[:6]
        street, house = rng.choice(names.STREETS), str(rng.randint(1, 120))
        flat = str(rng.randint(1, 300)) if rng.random() < 0.85 else None
        full = f"{post}, г. {city}, {street}, д. {house}" + (f", кв. {flat}" if flat else "")
        self.add(
            "address", (self.next_id("address"), person_id, addr_type, post, city, street, house, flat, full)
        )


def generate_bank_data(seed: int = SEED) -> BankData:
    """All rows of the sample bank; the same seed gives the same rows."""
    gen = _Generator(seed)
    gen.reference()
    gen.persons()
    gen.ledger()
    return gen.data
