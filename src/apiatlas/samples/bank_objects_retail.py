"""The sample bank's objects of a retail client: the person, addresses, accounts, securities deals,
securities, deposits and cards."""

from __future__ import annotations

from typing import Any

from apiatlas.samples.bank_object_terms import (
    ACCOUNT,
    AMOUNT,
    BRANCH,
    BY_ACCOUNT,
    BY_PERSON,
    CLOSE_DATE,
    CONTRACT,
    CURRENCY,
    DEAL_NUMBER,
    OPEN_DATE,
    PERSON,
    C,
)
from apiatlas.samples.families import Noun

# (key, name, noun, title, description, attributes, families, options), in the order of bank_objects.OBJECTS
RETAIL_OBJECTS: list[tuple[Any, ...]] = [
    (
        "Prs",
        "Person",
        PERSON,
        "Физическое лицо — клиент банка",
        "Бизнес-объект для работы с физическими лицами: поиск клиента по ФИО, ИНН, документу; "
        "карточка клиента, документы, контакты. PersonID — ключ клиента для счетов, вкладов, кредитов.",
        (
            C("SurName", "DSVARFULLNAME", "Фамилия"),
            C("FirstName", "DSVARNAME", "Имя"),
            C("Patronymic", "DSVARNAME", "Отчество"),
            C("BirthDate", "DSDATE", "Дата рождения"),
            C("INN", "DSINN", "ИНН"),
            C("SNILS", "DSSNILS", "СНИЛС"),
        ),
        (
            "GetHistory",
            "GetStatus",
            "CheckCanClose",
            "BrowsByBranch",
            "Add",
            "Upd",
            "Del",
            "Lock",
            "Unlock",
            "Export",
            "Import",
            "Print",
        ),
        {},
    ),
    (
        "Addr",
        "Address",
        Noun("адрес", "адреса", "адресов"),
        "Адрес клиента",
        "Адреса физических и юридических лиц: регистрации, фактический, почтовый. Адрес хранится как по "
        "частям (индекс, город, улица), так и одной строкой.",
        (
            C("AddrType", "DSCODE", "Тип адреса"),
            C("PostCode", "DSPOSTCODE", "Почтовый индекс"),
            C("City", "DSVARNAME", "Населённый пункт"),
            C("FullAddress", "DSADDRESS", "Адрес одной строкой"),
            C("CountryCode", "DSCOUNTRYCODE", "Код страны"),
        ),
        ("FindByID", "GetHistory", "Add", "Upd", "Del", "Export"),
        {"parents": (BY_PERSON,)},
    ),
    (
        "Acc",
        "Account",
        ACCOUNT,
        "Лицевой счёт",
        "Лицевые счета клиентов: поиск по владельцу и номеру, справочные данные, остатки и обороты. "
        "Владелец счёта (OwnerID) — физическое лицо (PersonID).",
        (C("AccType", "DSCODE", "Тип счёта"), CURRENCY, BRANCH, OPEN_DATE, CLOSE_DATE),
        (
            "FindListByID",
            "GetHistory",
            "GetStatus",
            "CheckCanClose",
            "BrowsByBranch",
            "Open",
            "Close",
            "Lock",
            "Unlock",
            "Upd",
            "Export",
            "Print",
        ),
        {"number": C("AccNumber", "DSACCNUMBER", "Номер счёта")},
    ),
    (
        "DSec",
        "DealSecurity",
        Noun("сделка с ценной бумагой", "сделки с ценной бумагой", "сделок с ценными бумагами"),
        "Сделка с ценной бумагой",
        "Бизнес-объект для работы со сделками с ценными бумагами: покупка и продажа на бирже и вне её, "
        "исполнение, расчёты. Часть методов исторически называется API_DealSecurity_*.",
        (
            C("DealDate", "DSDATE", "Дата заключения"),
            C("Direction", "DSCODE", "Направление: BUY/SELL"),
            C("Quantity", "DSQUANTITY", "Количество"),
            C("Price", "DSPRICE", "Цена"),
            AMOUNT,
            CURRENCY,
        ),
        ("FindByNumber", "GetHistory", "GetStatus", "Add", "Upd", "Del", "Confirm", "Cancel", "Export"),
        {"number": DEAL_NUMBER, "parents": (BY_ACCOUNT,)},
    ),
    (
        "Sec",
        "Security",
        Noun("ценная бумага", "ценной бумаги", "ценных бумаг"),
        "Ценная бумага (выпуск)",
        "Справочник выпусков ценных бумаг: акции, облигации, паи. Поиск по ISIN, параметры выпуска, "
        "эмитент, номинал, погашение.",
        (
            C("SecurityName", "DSVARCHAR255", "Наименование выпуска"),
            C("IssuerName", "DSVARCHAR255", "Эмитент"),
            C("FaceValue", "DSMONEY", "Номинал"),
            CURRENCY,
            C("MaturityDate", "DSDATE", "Дата погашения"),
        ),
        ("FindByID", "FindListByID", "GetHistory", "Add", "Upd", "Import"),
        {},
    ),
    (
        "Dep",
        "Deposit",
        Noun("вклад", "вклада", "вкладов"),
        "Вклад (депозит) физического лица",
        "Договоры срочных вкладов и вкладов до востребования: условия, ставки, капитализация, "
        "пролонгация и досрочное закрытие.",
        (
            C("ProductName", "DSVARCHAR255", "Вкладной продукт"),
            OPEN_DATE,
            C("EndDate", "DSDATE", "Дата окончания"),
            AMOUNT,
            C("Rate", "DSPERCENT", "Ставка, % годовых"),
            CURRENCY,
        ),
        (
            "FindListByID",
            "FindByNumber",
            "GetHistory",
            "GetStatus",
            "CheckCanClose",
            "Add",
            "Open",
            "Close",
            "Upd",
            "Print",
        ),
        {"number": CONTRACT, "parents": (BY_PERSON,)},
    ),
    (
        "Card",
        "Card",
        Noun("банковская карта", "банковской карты", "банковских карт"),
        "Банковская карта",
        "Банковские карты, выпущенные к карточным счетам: выпуск, перевыпуск, блокировка, статусы.",
        (
            C("CardMask", "DSCARDMASK", "Маскированный номер"),
            C("ExpDate", "DSDATE", "Срок действия"),
            C("CardStatus", "DSCODE", "Статус карты"),
            C("ProductName", "DSVARCHAR255", "Карточный продукт"),
        ),
        ("FindByID", "GetStatus", "GetHistory", "Add", "Lock", "Unlock", "Close"),
        {"parents": (BY_ACCOUNT,)},
    ),
]
