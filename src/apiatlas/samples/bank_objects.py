"""The sample bank's business objects: names, purposes, Russian noun forms, attributes and API families."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from apiatlas.samples.families import EntityProfile, Noun, ParentLink
from apiatlas.samples.spec import ColumnSpec

C = ColumnSpec

PERSON = Noun("физическое лицо", "физического лица", "физических лиц")
ACCOUNT = Noun("счёт", "счёта", "счетов")
ORG = Noun("юридическое лицо", "юридического лица", "юридических лиц")
CREDIT = Noun("кредитный договор", "кредитного договора", "кредитных договоров")

BY_PERSON = ParentLink("PersonID", "PersonID", "API_Prs_FindListByFIO", "PersonID", PERSON)
BY_OWNER = ParentLink("OwnerID", "PersonID", "API_Prs_FindListByFIO", "OwnerID", PERSON)
BY_CLIENT = ParentLink("ClientID", "PersonID", "API_Prs_FindListByFIO", "ClientID", PERSON)
BY_ACCOUNT = ParentLink("AccountID", "AccountID", "API_Acc_FindListByListOwnerID", "AccID", ACCOUNT)
BY_ORG = ParentLink("OrgID", "OrgID", "API_Org_FindByNumber", "OrgID", ORG)
BY_CREDIT = ParentLink("CreditID", "CreditID", "API_Crd_FindListByBorrowerID", "CreditID", CREDIT)

NAME = C("Name", "DSVARCHAR255", "Наименование")
BRIEF = C("Brief", "DSBRIEFNAME", "Краткое наименование (мнемоника)")
STATUS = C("Status", "DSCODE", "Код статуса")
OPEN_DATE = C("OpenDate", "DSDATE", "Дата открытия")
CLOSE_DATE = C("CloseDate", "DSDATE", "Дата закрытия")
AMOUNT = C("Amount", "DSMONEY", "Сумма")
CURRENCY = C("CurrencyCode", "DSCURRCODE", "Код валюты")
COMMENT = C("Comment", "DSCOMMENT", "Комментарий")
BRANCH = C("BranchCode", "DSCODE", "Код подразделения")
CONTRACT = C("ContractNumber", "DSCONTRACTNUMBER", "Номер договора")
DEAL_NUMBER = C("DealNumber", "DSDEALNUMBER", "Номер сделки")

READ_CORE = ("FindByID", "FindListByID", "FindByNumber", "FindListByParent")
WRITE_CORE = ("Add", "Upd", "Del")


@dataclass(frozen=True)
class CuratedObject:
    """A hand-described business object and the API families it offers."""

    profile: EntityProfile
    title: str
    description: str
    families: tuple[str, ...]
    visa: str = "Ok"


def _obj(
    key: str,
    name: str,
    noun: Noun,
    title: str,
    description: str,
    attrs: tuple[ColumnSpec, ...],
    families: tuple[str, ...],
    *,
    number: ColumnSpec | None = None,
    parents: tuple[ParentLink, ...] = (),
    id_field: str = "",
    visa: str = "Ok",
    index: int = 0,
) -> CuratedObject:
    profile = EntityProfile(
        key=key,
        name=name,
        noun=noun,
        id_field=id_field or f"{name}ID",
        attributes=attrs,
        number=number,
        parents=parents,
        error_base=51000 + index * 100,
    )
    return CuratedObject(profile, title, description, families, visa)


# (key, name, noun, title, description, attributes, families, options)
_RAW: list[tuple[Any, ...]] = [
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
    (
        "Plg",
        "Pledge",
        Noun("залог", "залога", "залогов"),
        "Залог по кредиту",
        "Предметы залога по кредитным договорам: недвижимость, транспорт, ценные бумаги; оценка.",
        (
            C("PledgeType", "DSCODE", "Вид залога"),
            C("Description", "DSCOMMENT", "Описание предмета"),
            C("MarketValue", "DSMONEY", "Рыночная стоимость"),
            C("ValueDate", "DSDATE", "Дата оценки"),
        ),
        ("FindByID", "FindListByParent", "GetHistory", "Add", "Upd", "Close", "GetStatus", "Print"),
        {"parents": (BY_CREDIT,)},
    ),
    (
        "Grn",
        "Guarantee",
        Noun("банковская гарантия", "банковской гарантии", "банковских гарантий"),
        "Банковская гарантия",
        "Гарантии, выданные банком юридическим лицам: сумма, срок, бенефициар.",
        (
            AMOUNT,
            CURRENCY,
            C("BeneficiaryName", "DSVARCHAR255", "Бенефициар"),
            C("EndDate", "DSDATE", "Срок действия"),
        ),
        ("FindByID", "FindByNumber", "FindListByParent", "GetStatus", "Add", "Open", "Close", "Print"),
        {"number": CONTRACT, "parents": (BY_ORG,)},
    ),
    (
        "Cash",
        "CashOrder",
        Noun("кассовый ордер", "кассового ордера", "кассовых ордеров"),
        "Кассовый ордер",
        "Приходные и расходные кассовые ордера: выдача и приём наличных.",
        (
            C("OrderType", "DSCODE", "Тип: IN — приход, OUT — расход"),
            AMOUNT,
            CURRENCY,
            C("OperDate", "DSDATE", "Дата"),
        ),
        ("FindByID", "FindListByParent", "Add", "Confirm", "Cancel", "Print", "GetStatus", "Export"),
        {"parents": (BY_ACCOUNT,)},
    ),
    (
        "DFx",
        "DealFX",
        Noun("валютная сделка", "валютной сделки", "валютных сделок"),
        "Конверсионная (валютная) сделка",
        "Сделки купли-продажи валюты: спот, форвард, своп.",
        (
            C("DealDate", "DSDATE", "Дата сделки"),
            C("BuyCurrency", "DSCURRCODE", "Покупаемая валюта"),
            C("SellCurrency", "DSCURRCODE", "Продаваемая валюта"),
            C("Rate", "DSRATE", "Курс сделки"),
            AMOUNT,
        ),
        ("FindByNumber", "FindListByParent", "GetStatus", "Add", "Confirm", "Cancel", "Export"),
        {"number": DEAL_NUMBER, "parents": (BY_CLIENT,)},
    ),
    (
        "DRepo",
        "DealRepo",
        Noun("сделка РЕПО", "сделки РЕПО", "сделок РЕПО"),
        "Сделка РЕПО",
        "Сделки прямого и обратного РЕПО с ценными бумагами.",
        (
            C("DealDate", "DSDATE", "Дата первой части"),
            C("RepurchaseDate", "DSDATE", "Дата второй части"),
            C("ISIN", "DSISIN", "ISIN бумаги"),
            C("Quantity", "DSQUANTITY", "Количество"),
            C("RepoRate", "DSPERCENT", "Ставка РЕПО"),
        ),
        (
            "FindByID",
            "FindByNumber",
            "GetStatus",
            "Add",
            "Confirm",
            "Close",
            "GetHistory",
            "Cancel",
            "Export",
        ),
        {"number": DEAL_NUMBER},
    ),
    (
        "Depo",
        "DepoAccount",
        Noun("счёт депо", "счёта депо", "счетов депо"),
        "Счёт депо",
        "Счета депо клиентов депозитария и остатки ценных бумаг на них.",
        (
            C("DepoNumber", "DSACCNUMBER", "Номер счёта депо"),
            OPEN_DATE,
            CLOSE_DATE,
            C("DepoType", "DSCODE", "Тип счёта депо"),
        ),
        (
            "FindByID",
            "FindListByParent",
            "GetStatus",
            "Open",
            "Close",
            "Lock",
            "GetHistory",
            "Unlock",
            "Export",
        ),
        {"parents": (BY_OWNER,)},
    ),
    (
        "Lim",
        "Limit",
        Noun("лимит", "лимита", "лимитов"),
        "Лимит по счёту",
        "Лимиты расходных операций по счетам и картам: суточные, месячные.",
        (C("LimitType", "DSCODE", "Тип лимита"), AMOUNT, CURRENCY, C("PeriodCode", "DSCODE", "Период: D, M")),
        ("FindByID", "FindListByParent", "GetHistory", "CheckCanClose", "Add", "Upd", "Del", "Lock"),
        {"parents": (BY_ACCOUNT,)},
    ),
    (
        "Arr",
        "Arrest",
        Noun("арест средств", "ареста средств", "арестов средств"),
        "Арест (блокировка) средств",
        "Аресты и приостановления операций по решениям ФССП и ФНС.",
        (
            C("DecisionNumber", "DSDOCNUMBER", "Номер решения"),
            C("DecisionDate", "DSDATE", "Дата решения"),
            AMOUNT,
            C("Authority", "DSVARCHAR255", "Орган, наложивший арест"),
        ),
        ("FindByID", "FindListByParent", "GetHistory", "GetStatus", "Add", "Close", "Import", "Export"),
        {"parents": (BY_ACCOUNT,)},
    ),
    (
        "Ntf",
        "Notification",
        Noun("уведомление", "уведомления", "уведомлений"),
        "Уведомление клиента",
        "SMS- и e-mail-уведомления клиентам: подписки, отправка, статусы доставки.",
        (
            C("Channel", "DSCODE", "Канал: SMS, EMAIL"),
            C("Phone", "DSPHONE", "Телефон"),
            C("Email", "DSEMAIL", "Почта"),
            C("SentAt", "DSDATETIME", "Время отправки"),
        ),
        ("FindByID", "FindListByParent", "Add", "Cancel", "Del"),
        {"parents": (BY_PERSON,), "visa": "На доработке"},
    ),
    (
        "Aml",
        "AmlCheck",
        Noun("проверка ПОД/ФТ", "проверки ПОД/ФТ", "проверок ПОД/ФТ"),
        "Проверка ПОД/ФТ",
        "Результаты проверок клиентов по перечням Росфинмониторинга и внутренним спискам.",
        (
            C("CheckDate", "DSDATETIME", "Время проверки"),
            C("ListCode", "DSCODE", "Перечень"),
            C("ResultFlag", "DSFLAG", "1 — совпадение найдено"),
            C("Comment", "DSCOMMENT", "Комментарий"),
        ),
        ("FindListByParent", "GetHistory", "Add", "Confirm", "FindByID", "Export"),
        {"parents": (BY_PERSON,), "visa": "Не Ok"},
    ),
    (
        "Prod",
        "Product",
        Noun("банковский продукт", "банковского продукта", "банковских продуктов"),
        "Банковский продукт",
        "Справочник продуктов: вклады, кредиты, карты, пакеты услуг; условия по умолчанию.",
        (
            NAME,
            C("ProductType", "DSCODE", "Тип продукта"),
            C("Rate", "DSPERCENT", "Базовая ставка"),
            CURRENCY,
        ),
        ("FindByID", "FindListByID", "BrowsByBranch", "Add", "Upd", "Close", "GetHistory", "Export"),
        {},
    ),
]

OBJECTS: tuple[CuratedObject, ...] = tuple(_obj(*raw[:7], index=i, **raw[7]) for i, raw in enumerate(_RAW))
