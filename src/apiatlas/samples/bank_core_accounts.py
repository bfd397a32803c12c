"""The sample bank's core APIs of accounts: finding them, balances and turnovers (docs/sample-bank.md)."""

from __future__ import annotations

from apiatlas.samples.spec import ApiSpec, ColumnSpec, ErrorSpec, ParamSpec, TableSpec

C = ColumnSpec

# --- Account ------------------------------------------------------------------------------------

ACCOUNT_ID = C("AccountID", "DSIDENTIFIER", "ID счёта")
OWNER_ID = C("OwnerID", "DSIDENTIFIER", "ID владельца счёта (ID физического лица, PersonID)")
ACC_NUMBER = C("AccNumber", "DSACCNUMBER", "Номер счёта (20 цифр)")
CURRENCY = C("CurrencyCode", "DSCURRCODE", "Код валюты (810 — рубль, 840 — доллар США, 978 — евро)")
ACC_TYPE = C(
    "AccType", "DSCODE", "Тип счёта: CUR — текущий, CARD — карточный, DEP — депозитный, BRK — брокерский"
)
OPEN_DATE = C("OpenDate", "DSDATE", "Дата открытия")
CLOSE_DATE = C("CloseDate", "DSDATE", "Дата закрытия; пусто — счёт открыт")


def _account_info() -> TableSpec:
    return TableSpec(
        "pAPI_Account_Info",
        "out",
        "Справочные данные счёта",
        (
            ACCOUNT_ID,
            OWNER_ID,
            ACC_NUMBER,
            CURRENCY,
            ACC_TYPE,
            C("BranchCode", "DSCODE", "Код подразделения, ведущего счёт"),
            OPEN_DATE,
            CLOSE_DATE,
            C("Purpose", "DSCOMMENT", "Назначение счёта"),
        ),
    )


API_ACC_FIND_LIST_BY_LIST_OWNER_ID = ApiSpec(
    name="API_Acc_FindListByListOwnerID",
    object_key="Acc",
    title="Поиск счетов по списку владельцев",
    description=(
        "Метод возвращает счета владельцев, перечисленных во входной таблице pAPI_Account_OwnerID. "
        "Владелец — физическое лицо: в OwnerID передаётся PersonID. По умолчанию возвращаются и открытые, "
        "и закрытые счета; @OnlyOpenFlag = 1 оставляет только открытые.\n\n"
        "Сценарии использования:\n"
        "1. Найти все счета клиента после поиска по ФИО (PersonID -> OwnerID).\n"
        "2. Получить AccountID для запроса остатка (API_Acc_GetRest) или сделок с ценными бумагами "
        "(API_DSec_FindListIDByAccID).\n"
        "3. Пакетно получить счета нескольких клиентов за один вызов."
    ),
    params=(ParamSpec("OnlyOpenFlag", "DSTINYINT", False, "1 — только открытые счета, 0 или пусто — все"),),
    input_tables=(TableSpec("pAPI_Account_OwnerID", "in", "Список владельцев счетов", (OWNER_ID,)),),
    output_tables=(
        TableSpec(
            "pAPI_Account_List",
            "out",
            "Найденные счета",
            (
                ACCOUNT_ID,
                C("OwnerID", "DSIDENTIFIER", "ID владельца счёта (PersonID)"),
                ACC_NUMBER,
                CURRENCY,
                ACC_TYPE,
                OPEN_DATE,
                CLOSE_DATE,
            ),
        ),
    ),
    errors=(ErrorSpec(50001, "Не задан ни один владелец"),),
)

API_ACC_FIND_BY_NUMBER = ApiSpec(
    name="API_Acc_FindByNumber",
    object_key="Acc",
    title="Поиск счёта по номеру",
    description=(
        "Метод находит счёт по 20-значному номеру и возвращает его справочные данные, включая AccountID "
        "и владельца.\n\n"
        "Сценарии использования:\n"
        "1. Клиент назвал номер счёта — получить AccountID для остальных методов.\n"
        "2. Проверка, кому принадлежит счёт, указанный в платёжном документе."
    ),
    params=(ParamSpec("AccNumber", "DSACCNUMBER", True, "Номер счёта, 20 цифр"),),
    output_tables=(_account_info(),),
    errors=(
        ErrorSpec(50002, "Счёт с указанным номером не найден"),
        ErrorSpec(50003, "Некорректный номер счёта"),
    ),
)

API_ACC_FIND_BY_ID = ApiSpec(
    name="API_Acc_FindByID",
    object_key="Acc",
    title="Справочные данные счёта по ID",
    description=(
        "Метод возвращает справочные (статические) данные счёта: номер, владельца, валюту, тип, "
        "подразделение, даты открытия и закрытия, назначение. Остаток НЕ возвращает — для остатка "
        "используйте API_Acc_GetRest.\n\n"
        "Сценарии использования:\n"
        "1. Просмотр реквизитов счёта по AccountID.\n"
        "2. Проверка, открыт ли счёт и в какой он валюте."
    ),
    params=(ParamSpec("AccountID", "DSIDENTIFIER", True, "ID счёта"),),
    output_tables=(_account_info(),),
    errors=(ErrorSpec(50004, "Счёт с указанным ID не найден"),),
)

API_ACC_GET_REST = ApiSpec(
    name="API_Acc_GetRest",
    object_key="Acc",
    title="Остаток на счёте на дату",
    description=(
        "Метод возвращает входящий остаток на счёте на указанную дату (по умолчанию — на текущий "
        "операционный день) в валюте счёта.\n\n"
        "Сценарии использования:\n"
        "1. Ответ на вопрос «сколько денег на счёте».\n"
        "2. Проверка достаточности средств перед операцией."
    ),
    params=(
        ParamSpec("AccountID", "DSIDENTIFIER", True, "ID счёта"),
        ParamSpec("RestDate", "DSDATE", False, "Дата остатка; не задана — текущий операционный день"),
    ),
    output_tables=(
        TableSpec(
            "pAPI_Account_Rest",
            "out",
            "Остаток на счёте",
            (
                ACCOUNT_ID,
                ACC_NUMBER,
                C("RestDate", "DSDATE", "Дата, на которую рассчитан остаток"),
                C("Rest", "DSMONEY", "Остаток в валюте счёта"),
                CURRENCY,
            ),
        ),
    ),
    errors=(
        ErrorSpec(50004, "Счёт с указанным ID не найден"),
        ErrorSpec(50005, "Дата остатка раньше даты открытия счёта"),
    ),
)

API_ACC_GET_REST_TURN = ApiSpec(
    name="API_Acc_GetRestTurn",
    object_key="Acc",
    title="Остатки и обороты по счёту за период",
    description=(
        "Метод возвращает входящий остаток, дебетовый и кредитовый обороты и исходящий остаток по счёту "
        "за период.\n\n"
        "Сценарии использования:\n"
        "1. Ответ на вопрос «сколько поступило и списано за месяц».\n"
        "2. Сверка движения средств по счёту с выпиской."
    ),
    params=(
        ParamSpec("AccountID", "DSIDENTIFIER", True, "ID счёта"),
        ParamSpec("DateFrom", "DSDATE", True, "Начало периода (включительно)"),
        ParamSpec("DateTo", "DSDATE", True, "Конец периода (включительно)"),
    ),
    output_tables=(
        TableSpec(
            "pAPI_Account_Turn",
            "out",
            "Остатки и обороты за период",
            (
                ACCOUNT_ID,
                C("DateFrom", "DSDATE", "Начало периода"),
                C("DateTo", "DSDATE", "Конец периода"),
                C("RestIn", "DSMONEY", "Входящий остаток на начало периода"),
                C("DebetTurn", "DSMONEY", "Оборот по дебету (списания)"),
                C("CreditTurn", "DSMONEY", "Оборот по кредиту (поступления)"),
                C("RestOut", "DSMONEY", "Исходящий остаток на конец периода"),
            ),
        ),
    ),
    errors=(
        ErrorSpec(50004, "Счёт с указанным ID не найден"),
        ErrorSpec(50006, "Дата начала периода позже даты окончания"),
    ),
)
