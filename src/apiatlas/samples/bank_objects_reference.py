"""The sample bank's reference objects: branches, currencies and rates, correspondent banks, employees,
tariffs and commissions."""

from __future__ import annotations

from typing import Any

from apiatlas.samples.bank_object_terms import (
    AMOUNT,
    BRANCH,
    BY_ACCOUNT,
    CURRENCY,
    NAME,
    OPEN_DATE,
    C,
)
from apiatlas.samples.families import Noun

# (key, name, noun, title, description, attributes, families, options), in the order of bank_objects.OBJECTS
REFERENCE_OBJECTS: list[tuple[Any, ...]] = [
    (
        "Brn",
        "Branch",
        Noun("подразделение банка", "подразделения банка", "подразделений банка"),
        "Подразделение банка",
        "Справочник подразделений: филиалы, дополнительные офисы, операционные кассы.",
        (NAME, C("FullAddress", "DSADDRESS", "Адрес"), C("Phone", "DSPHONE", "Телефон"), OPEN_DATE),
        ("FindByID", "FindByNumber", "GetHistory", "Add", "Upd", "Close", "FindListByID", "Export"),
        {"number": BRANCH},
    ),
    (
        "Curr",
        "Currency",
        Noun("валюта", "валюты", "валют"),
        "Валюта",
        "Справочник валют по ОКВ: коды, наименования, точность.",
        (
            NAME,
            C("ISOCode", "DSBRIEFNAME", "Буквенный код ISO 4217"),
            C("Precision", "DSTINYINT", "Знаков после запятой"),
        ),
        ("FindByNumber", "FindListByID", "Add", "Upd", "Del", "Export"),
        {"number": CURRENCY},
    ),
    (
        "CRate",
        "CurrencyRate",
        Noun("курс валюты", "курса валюты", "курсов валют"),
        "Курс валюты",
        "Официальные курсы ЦБ РФ и внутренние курсы банка на дату.",
        (
            CURRENCY,
            C("RateDate", "DSDATE", "Дата курса"),
            C("Rate", "DSRATE", "Курс"),
            C("RateType", "DSCODE", "Тип курса: CB — ЦБ РФ, BUY, SELL"),
        ),
        ("FindByID", "FindListByID", "GetHistory", "Add", "Import", "Export", "Del"),
        {},
    ),
    (
        "Bnk",
        "Bank",
        Noun("банк-корреспондент", "банка-корреспондента", "банков-корреспондентов"),
        "Банк-корреспондент",
        "Справочник банков: БИК, SWIFT, корреспондентские счета.",
        (
            NAME,
            C("SWIFT", "DSSWIFT", "SWIFT-код"),
            C("CorrAccNumber", "DSACCNUMBER", "Корреспондентский счёт"),
            C("CountryCode", "DSCOUNTRYCODE", "Страна"),
        ),
        ("FindByID", "FindByNumber", "FindListByID", "Add", "Upd", "Import"),
        {"number": C("BIC", "DSBIC", "БИК банка")},
    ),
    (
        "Emp",
        "Employee",
        Noun("сотрудник банка", "сотрудника банка", "сотрудников банка"),
        "Сотрудник банка",
        "Сотрудники: операционисты, контролёры, кредитные менеджеры; права и подразделение.",
        (
            C("SurName", "DSVARFULLNAME", "Фамилия"),
            C("FirstName", "DSVARNAME", "Имя"),
            BRANCH,
            C("Position", "DSVARCHAR255", "Должность"),
            C("Email", "DSEMAIL", "Почта"),
        ),
        ("FindByID", "BrowsByBranch", "Add", "Upd", "Lock", "Unlock", "GetHistory", "Del", "Export"),
        {},
    ),
    (
        "Trf",
        "Tariff",
        Noun("тариф", "тарифа", "тарифов"),
        "Тариф банка",
        "Тарифы на услуги: комиссии за переводы, обслуживание счетов и карт.",
        (
            NAME,
            C("TariffCode", "DSCODE", "Код тарифа"),
            AMOUNT,
            C("Rate", "DSPERCENT", "Ставка, %"),
            CURRENCY,
        ),
        ("FindByID", "FindListByID", "GetHistory", "Add", "Upd", "Del", "Export", "Import"),
        {},
    ),
    (
        "Com",
        "Commission",
        Noun("комиссия", "комиссии", "комиссий"),
        "Комиссия по счёту",
        "Начисленные и списанные комиссии по счетам клиентов.",
        (
            C("TariffCode", "DSCODE", "Код тарифа"),
            AMOUNT,
            CURRENCY,
            C("ChargeDate", "DSDATE", "Дата начисления"),
        ),
        ("FindByID", "FindListByParent", "GetStatus", "Add", "Cancel", "Export", "Del", "Print"),
        {"parents": (BY_ACCOUNT,)},
    ),
]
