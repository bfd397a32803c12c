"""The sample bank's objects of organisations and lending: organisations, credits and their schedules, payment
orders and transactions."""

from __future__ import annotations

from typing import Any

from apiatlas.samples.bank_object_terms import (
    AMOUNT,
    BY_ACCOUNT,
    BY_CREDIT,
    CONTRACT,
    CREDIT,
    CURRENCY,
    NAME,
    OPEN_DATE,
    ORG,
    PERSON,
    READ_CORE,
    WRITE_CORE,
    C,
)
from apiatlas.samples.families import Noun, ParentLink

# (key, name, noun, title, description, attributes, families, options), in the order of bank_objects.OBJECTS
CORPORATE_OBJECTS: list[tuple[Any, ...]] = [
    (
        "Org",
        "Organization",
        ORG,
        "Юридическое лицо — клиент банка",
        "Юридические лица и индивидуальные предприниматели: поиск по ИНН, ОГРН, наименованию; реквизиты.",
        (
            NAME,
            C("KPP", "DSKPP", "КПП"),
            C("OGRN", "DSOGRN", "ОГРН"),
            C("OKVED", "DSOKVED", "Основной ОКВЭД"),
            C("RegDate", "DSDATE", "Дата регистрации"),
        ),
        (
            "FindByID",
            "FindListByID",
            "FindByNumber",
            "GetHistory",
            "BrowsByBranch",
            "Add",
            "Upd",
            "Del",
            "Export",
        ),
        {"number": C("INN", "DSINN", "ИНН организации (10 цифр)")},
    ),
    (
        "Crd",
        "Credit",
        CREDIT,
        "Кредитный договор",
        "Кредиты физическим лицам: договоры, суммы, ставки, задолженность, просрочка. Заёмщик — "
        "физическое лицо (BorrowerID = PersonID).",
        (
            C("ProductName", "DSVARCHAR255", "Кредитный продукт"),
            AMOUNT,
            C("Rate", "DSPERCENT", "Ставка"),
            CURRENCY,
            OPEN_DATE,
            C("EndDate", "DSDATE", "Дата окончания"),
        ),
        (*READ_CORE, "GetStatus", "GetHistory", "CheckCanClose", *WRITE_CORE, "Open", "Close", "Print"),
        {
            "number": CONTRACT,
            "parents": (ParentLink("BorrowerID", "PersonID", "API_Prs_FindListByFIO", "BorrowerID", PERSON),),
        },
    ),
    (
        "Grf",
        "CreditSchedule",
        Noun("график платежей", "графика платежей", "графиков платежей"),
        "График платежей по кредиту",
        "Плановые платежи по кредитному договору: даты, основной долг, проценты.",
        (
            C("PayDate", "DSDATE", "Дата платежа"),
            C("MainDebt", "DSMONEY", "Основной долг"),
            C("Interest", "DSMONEY", "Проценты"),
            AMOUNT,
        ),
        ("FindByID", "FindListByParent", "GetHistory", "Add", "Upd", "Del", "Print", "Export"),
        {"parents": (BY_CREDIT,)},
    ),
    (
        "Pmt",
        "PaymentOrder",
        Noun("платёжное поручение", "платёжного поручения", "платёжных поручений"),
        "Платёжное поручение",
        "Платёжные поручения клиентов: создание, подписание, отправка, отзыв, статусы исполнения.",
        (
            C("DocDate", "DSDATE", "Дата документа"),
            AMOUNT,
            C("PayeeAccNumber", "DSACCNUMBER", "Счёт получателя"),
            C("PayeeBIC", "DSBIC", "БИК банка получателя"),
            C("PayeeINN", "DSINN", "ИНН получателя"),
            C("Purpose", "DSCOMMENT", "Назначение платежа"),
        ),
        (*READ_CORE, "GetStatus", *WRITE_CORE, "Confirm", "Cancel", "Export", "Import", "Print"),
        {"number": C("DocNumber", "DSDOCNUMBER", "Номер документа"), "parents": (BY_ACCOUNT,)},
    ),
    (
        "Trn",
        "Transaction",
        Noun("проводка", "проводки", "проводок"),
        "Бухгалтерская проводка",
        "Проводки по счетам: дебет, кредит, сумма, дата. Только чтение для внешних систем.",
        (
            C("OperDate", "DSDATE", "Дата проводки"),
            C("DebetAccNumber", "DSACCNUMBER", "Счёт дебета"),
            C("CreditAccNumber", "DSACCNUMBER", "Счёт кредита"),
            AMOUNT,
            C("Purpose", "DSCOMMENT", "Назначение"),
        ),
        ("FindByID", "FindListByParent", "BrowsByBranch", "Add", "Cancel", "Export", "FindListByID", "Print"),
        {"parents": (BY_ACCOUNT,)},
    ),
]
