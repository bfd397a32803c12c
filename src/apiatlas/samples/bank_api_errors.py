"""Error codes each sample-bank database API raises (DETAIL of a P0001 exception), per API.

The per-API codes are those of the documentation (``samples/bank_core.py``); 50000 is the
convention-wide "required parameter not given" code (docs/sample-bank.md, "Database convention").
"""

from __future__ import annotations

MISSING_PARAMETER = 50000

ERROR_TEXTS: dict[int, str] = {
    MISSING_PARAMETER: "Не задан обязательный параметр (HINT — имя параметра)",
    50001: "Не задан ни один владелец",
    50002: "Счёт с указанным номером не найден",
    50003: "Некорректный номер счёта",
    50004: "Счёт с указанным ID не найден",
    50005: "Дата остатка раньше даты открытия счёта",
    50006: "Дата начала периода позже даты окончания",
    50007: "Период длиннее 366 дней",
    50101: "Не задана фамилия",
    50102: "Слишком короткая строка поиска: фамилия должна содержать не менее 2 символов",
    50103: "Некорректный ИНН: ожидается 12 цифр",
    50104: "Физическое лицо с указанным ID не найдено",
    50201: "Неизвестный тип адреса",
    50301: "Не задан ни один счёт",
    50302: "Дата начала периода позже даты окончания",
    50303: "Входная таблица пуста",
    50401: "Ценная бумага с указанным ISIN не найдена",
    50501: "Вклад с указанным ID не найден",
    59999: "Тестовая ошибка (тестовая процедура)",
}
"""Every code the sample database raises, with its documented meaning."""

API_ERRORS: dict[str, tuple[int, ...]] = {
    "API_Prs_FindListByFIO": (50101, 50102),
    "API_Prs_FindListByINN": (50103,),
    "API_Prs_FindByID": (50104,),
    "API_Prs_GetDocList": (50104,),
    "API_Addr_FindListByPersonID": (50201,),
    "API_Acc_FindListByListOwnerID": (50001,),
    "API_Acc_FindByNumber": (50002, 50003),
    "API_Acc_FindByID": (50004,),
    "API_Acc_GetRest": (50004, 50005),
    "API_Acc_GetRestTurn": (50004, 50006),
    "API_DSec_FindListIDByAccID": (50301, 50302),
    "API_DealSecurity_FindListByID": (50303,),
    "API_Sec_FindByISIN": (50401,),
    "API_Dep_FindListByPersonID": (50104,),
    "API_Dep_FindByID": (50501,),
    "API_Card_FindListByAccID": (50004,),
    # plain functions returning rows
    "API_Crncy_GetRateList": (),
    "API_Acc_GetRestHistory": (50004, 50006, 50007),
    # test procedures (examples/bank/db/test_procedures.sql)
    "API_Test_Sleep": (),
    "API_Test_Fail": (59999,),
    "API_Test_Write": (),
}
"""API name → the API-specific codes it may raise (besides 50000), as in its ``Коды ошибок`` table."""

CORE_APIS: tuple[str, ...] = tuple(API_ERRORS)[:16]
"""The 16 core procedures of docs/sample-bank.md."""

ROW_FUNCTIONS: tuple[str, ...] = ("API_Crncy_GetRateList", "API_Acc_GetRestHistory")
"""Plain functions returning rows: ``SELECT * FROM api."<name>"(...)``."""

TEST_PROCEDURES: tuple[str, ...] = ("API_Test_Sleep", "API_Test_Fail", "API_Test_Write")


def errors_of(api: str) -> list[tuple[int, str]]:
    """The (code, text) pairs an API may raise besides 50000, in code order."""
    return [(code, ERROR_TEXTS[code]) for code in sorted(API_ERRORS.get(api, ()))]
