"""The bank's DS* domain types, built in: JSON Schema, meaning, example and class (generic, user value).

The bank's documentation names these types without defining most of them; the bank format supplies them
to the types pass (``BankHtmlFormat.builtin_types``) and derives its generic and user-value classes from them.
"""

from __future__ import annotations

from typing import Any

from apiatlas.catalog.model import DomainType


def _t(
    name: str,
    base_type: str,
    schema: dict[str, Any],
    meaning: str,
    example: Any,
    *,
    user_value: bool = False,
    generic: bool = True,
) -> DomainType:
    return DomainType(
        name=name,
        base_type=base_type,
        json_schema=schema,
        meaning=meaning,
        example=example,
        user_value=user_value,
        generic=generic,
    )


_INT: dict[str, Any] = {"type": "integer"}
_NUM: dict[str, Any] = {"type": "number"}


def _str(max_length: int | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    if max_length is not None:
        schema["maxLength"] = max_length
    schema.update(extra)
    return schema


_TYPES: list[DomainType] = [
    # identifiers and integers
    _t("DSIDENTIFIER", "numeric(15,0)", _INT, "Идентификатор сущности", 1001),
    _t("DSBIGINT", "bigint", _INT, "Целое число (большое)", 100000),
    _t("DSINT", "int", _INT, "Целое число", 10),
    _t("DSSMALLINT", "smallint", _INT, "Малое целое число", 1),
    _t("DSTINYINT", "tinyint", {"type": "integer", "minimum": 0, "maximum": 255}, "Малое целое / режим", 0),
    _t("DSFLAG", "tinyint", {"type": "integer", "enum": [0, 1]}, "Флаг: 0 — нет, 1 — да", 1),
    _t("DSSTATUS", "tinyint", _INT, "Код состояния (статус)", 1),
    _t("DSSORTORDER", "int", _INT, "Порядок сортировки", 1),
    _t(
        "DSGUID",
        "uniqueidentifier",
        _str(format="uuid"),
        "Глобальный уникальный идентификатор",
        "6f1c2e44-8d3a-4b7e-9a51-0c2d3e4f5a6b",
    ),
    _t(
        "DSYEAR",
        "smallint",
        {"type": "integer", "minimum": 1900, "maximum": 2100},
        "Год",
        2024,
        user_value=True,
    ),
    _t(
        "DSMONTH",
        "tinyint",
        {"type": "integer", "minimum": 1, "maximum": 12},
        "Месяц (1–12)",
        1,
        user_value=True,
    ),
    # numbers
    _t("DSNUMBER", "numeric(28,10)", _NUM, "Число", 1.5),
    _t("DSFLOAT", "float", _NUM, "Число с плавающей точкой", 1.5),
    _t("DSMONEY", "numeric(19,4)", _NUM, "Денежная сумма", 1000.0, user_value=True),
    _t("DSPRICE", "numeric(19,8)", _NUM, "Цена", 101.25, user_value=True),
    _t("DSQUANTITY", "numeric(19,6)", _NUM, "Количество", 10),
    _t("DSPERCENT", "numeric(9,4)", _NUM, "Процент (ставка)", 7.5, user_value=True),
    _t("DSRATE", "numeric(19,8)", _NUM, "Курс (коэффициент)", 92.5),
    # dates and times
    _t("DSDATE", "date", _str(format="date"), "Дата", "2024-01-31", user_value=True),
    _t(
        "DSDATETIME",
        "datetime",
        _str(format="date-time"),
        "Дата и время",
        "2024-01-31T10:00:00",
        user_value=True,
    ),
    _t("DSTIME", "time", _str(format="time"), "Время", "10:00:00", user_value=True),
    # people and names
    _t("DSVARFULLNAME", "varchar(255)", _str(255), "ФИО или фамилия", "Иванов", user_value=True),
    _t("DSVARNAME", "varchar(100)", _str(100), "Имя, наименование", "Иван", user_value=True),
    _t("DSNAME", "varchar(255)", _str(255), "Наименование", "ООО Ромашка", user_value=True),
    _t("DSBRIEF", "varchar(30)", _str(30), "Краткое наименование (сокращение)", "RUB", user_value=True),
    _t("DSSHORTNAME", "varchar(50)", _str(50), "Краткое наименование", "Ромашка", user_value=True),
    _t(
        "DSLOGIN",
        "varchar(100)",
        _str(100),
        "Логин пользователя",
        "ivanov_ii",
        user_value=True,
        generic=False,
    ),
    # free text
    _t("DSVARCHAR20", "varchar(20)", _str(20), "Строка до 20 символов", "abc"),
    _t("DSVARCHAR50", "varchar(50)", _str(50), "Строка до 50 символов", "abc"),
    _t("DSVARCHAR100", "varchar(100)", _str(100), "Строка до 100 символов", "abc"),
    _t("DSVARCHAR255", "varchar(255)", _str(255), "Строка до 255 символов", "abc"),
    _t("DSVARCHAR1000", "varchar(1000)", _str(1000), "Строка до 1000 символов", "abc"),
    _t("DSVARCHAR4000", "varchar(4000)", _str(4000), "Строка до 4000 символов", "abc"),
    _t("DSCOMMENT", "varchar(1000)", _str(1000), "Комментарий", "Комментарий"),
    _t("DSTEXT", "text", _str(), "Текст", "Текст"),
    _t("DSXML", "xml", _str(), "XML-документ", "<root/>"),
    _t("DSBINARY", "varbinary(max)", _str(format="byte"), "Двоичные данные (base64)", "AAEC"),
    _t("DSVARNAMEOBJ", "varchar(128)", _str(128), "Системное имя объекта", "API_Prs_FindByID"),
    # codes and reference values
    _t("DSCODE", "varchar(20)", _str(20), "Код справочного значения", "01", user_value=True),
    _t(
        "DSCURRCODE",
        "char(3)",
        _str(3, pattern=r"^([A-Z]{3}|\d{3})$"),
        "Код валюты (ISO 4217)",
        "RUB",
        user_value=True,
    ),
    _t(
        "DSCOUNTRYCODE",
        "char(3)",
        _str(3, pattern=r"^([A-Z]{2,3}|\d{3})$"),
        "Код страны (ОКСМ / ISO 3166)",
        "RU",
        user_value=True,
    ),
    _t("DSLANGCODE", "char(2)", _str(2, pattern=r"^[a-z]{2}$"), "Код языка", "ru"),
    # addresses and contacts
    _t("DSADDRESS", "varchar(500)", _str(500), "Адрес", "г. Москва, ул. Ленина, д. 1", user_value=True),
    _t(
        "DSPOSTCODE",
        "char(6)",
        _str(6, pattern=r"^\d{6}$"),
        "Почтовый индекс",
        "101000",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSPHONE",
        "varchar(20)",
        _str(20, pattern=r"^\+?[0-9 ()\-]{5,20}$"),
        "Номер телефона",
        "+7 495 000-00-00",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSEMAIL",
        "varchar(100)",
        _str(100, format="email"),
        "Адрес электронной почты",
        "ivanov@example.ru",
        user_value=True,
        generic=False,
    ),
    # bank identifiers: specific, link APIs by type alone
    _t(
        "DSACCNUMBER",
        "char(20)",
        _str(20, pattern=r"^\d{20}$"),
        "Номер банковского счёта",
        "40817810000000000001",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSBALACC",
        "char(5)",
        _str(5, pattern=r"^\d{5}$"),
        "Балансовый счёт второго порядка",
        "40817",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSACCMASK",
        "varchar(20)",
        _str(20, pattern=r"^[0-9%_]{1,20}$"),
        "Маска номера счёта",
        "40817%",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSINN",
        "varchar(12)",
        _str(12, pattern=r"^\d{10}(\d{2})?$"),
        "ИНН",
        "7707083893",
        user_value=True,
        generic=False,
    ),
    _t("DSKPP", "char(9)", _str(9, pattern=r"^\d{9}$"), "КПП", "770701001", user_value=True, generic=False),
    _t(
        "DSOGRN",
        "varchar(15)",
        _str(15, pattern=r"^\d{13}(\d{2})?$"),
        "ОГРН / ОГРНИП",
        "1027700132195",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSSNILS",
        "varchar(14)",
        _str(14, pattern=r"^(\d{3}-\d{3}-\d{3} \d{2}|\d{11})$"),
        "СНИЛС",
        "112-233-445 95",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSBIC",
        "char(9)",
        _str(9, pattern=r"^\d{9}$"),
        "БИК банка",
        "044525225",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSSWIFT",
        "varchar(11)",
        _str(11, pattern=r"^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$"),
        "SWIFT-код банка",
        "SABRRUMM",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSISIN",
        "char(12)",
        _str(12, pattern=r"^[A-Z]{2}[A-Z0-9]{9}\d$"),
        "ISIN ценной бумаги",
        "RU000A0JX0J2",
        user_value=True,
        generic=False,
    ),
    _t("DSTICKER", "varchar(20)", _str(20), "Биржевой тикер", "SBER", user_value=True, generic=False),
    _t(
        "DSREGNUMBER",
        "varchar(50)",
        _str(50),
        "Регистрационный номер выпуска ценной бумаги",
        "10301481B",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSCARDMASK",
        "varchar(19)",
        _str(19, pattern=r"^\d{4,6}[*Xx]+\d{4}$"),
        "Маскированный номер карты",
        "427600******1234",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSCARDNUMBER",
        "varchar(19)",
        _str(19, pattern=r"^\d{16,19}$"),
        "Номер банковской карты",
        "4276000000001234",
        user_value=True,
        generic=False,
    ),
    _t(
        "DSCONTRACTNUMBER",
        "varchar(50)",
        _str(50),
        "Номер договора",
        "Д-2024/001",
        user_value=True,
        generic=False,
    ),
    _t("DSDEALNUMBER", "varchar(50)", _str(50), "Номер сделки", "СД-000123", user_value=True, generic=False),
    _t("DSDOCSERIES", "varchar(10)", _str(10), "Серия документа", "4510", user_value=True),
    _t("DSDOCNUMBER", "varchar(20)", _str(20), "Номер документа", "123456", user_value=True, generic=False),
]

BANK_TYPES: dict[str, DomainType] = {t.name: t for t in _TYPES}


def generic_names() -> list[str]:
    """The bank types too common to link APIs by type alone (ids, money, dates, flags, free text)."""
    return sorted(t.name for t in BANK_TYPES.values() if t.generic)


def user_value_names() -> list[str]:
    """The bank types whose values a person can say (names, dates, account numbers, INN, ISIN, codes)."""
    return sorted(t.name for t in BANK_TYPES.values() if t.user_value)
