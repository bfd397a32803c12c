"""The sample bank's core APIs of what a client holds: securities deals, securities, deposits and cards
(docs/sample-bank.md)."""

from __future__ import annotations

from apiatlas.samples.bank_core_accounts import ACCOUNT_ID, CURRENCY
from apiatlas.samples.bank_core_persons import PERSON_ID
from apiatlas.samples.spec import ApiSpec, ColumnSpec, ErrorSpec, ParamSpec, TableSpec

C = ColumnSpec

# --- Securities deals ---------------------------------------------------------------------------

DEAL_ID = C("DealSecurityID", "DSIDENTIFIER", "ID сделки с ценной бумагой")

API_DSEC_FIND_LIST_ID_BY_ACC_ID = ApiSpec(
    name="API_DSec_FindListIDByAccID",
    object_key="DSec",
    title="Поиск ID сделок с ценными бумагами по счетам",
    description=(
        "Метод возвращает только идентификаторы сделок с ценными бумагами, заключённых по счетам из "
        "входной таблицы pAPI_DSec_AccID, за период по дате заключения. Данные сделок возвращает "
        "API_DealSecurity_FindListByID.\n\n"
        "Сценарии использования:\n"
        "1. Найти сделки клиента с ценными бумагами: счета клиента -> ID сделок -> данные сделок.\n"
        "2. Контроль сделок по брокерскому счёту за период."
    ),
    params=(
        ParamSpec("DateFrom", "DSDATE", False, "Начало периода по дате сделки; не задано — без ограничения"),
        ParamSpec("DateTo", "DSDATE", False, "Конец периода по дате сделки; не задано — без ограничения"),
    ),
    input_tables=(
        TableSpec(
            "pAPI_DSec_AccID",
            "in",
            "Счета, по которым ищутся сделки",
            (C("AccountID", "DSIDENTIFIER", "ID счёта (AccountID клиента)"),),
        ),
    ),
    output_tables=(
        TableSpec(
            "pAPI_DSec_IDList",
            "out",
            "ID найденных сделок",
            (DEAL_ID, C("AccountID", "DSIDENTIFIER", "ID счёта сделки")),
        ),
    ),
    errors=(
        ErrorSpec(50301, "Не задан ни один счёт"),
        ErrorSpec(50302, "Дата начала периода позже даты окончания"),
    ),
)

API_DEAL_SECURITY_FIND_LIST_BY_ID = ApiSpec(
    name="API_DealSecurity_FindListByID",
    object_key="DSec",
    title="Данные сделок с ценными бумагами по списку ID",
    description=(
        "Метод возвращает данные сделок с ценными бумагами по списку ID во входной таблице: номер и дату, "
        "направление (покупка/продажа), бумагу, количество, цену, сумму и счёт.\n\n"
        "Сценарии использования:\n"
        "1. Последний шаг цепочки «сделки клиента»: ID из API_DSec_FindListIDByAccID -> данные сделок.\n"
        "2. Просмотр параметров конкретной сделки по её ID."
    ),
    input_tables=(
        TableSpec(
            "pAPI_DealSecurity_ID",
            "in",
            "Список ID сделок",
            (C("DealSecurityID", "DSIDENTIFIER", "ID сделки с ценной бумагой"),),
        ),
    ),
    output_tables=(
        TableSpec(
            "pAPI_DealSecurity_List",
            "out",
            "Данные сделок",
            (
                DEAL_ID,
                C("DealNumber", "DSDEALNUMBER", "Номер сделки"),
                C("DealDate", "DSDATE", "Дата заключения сделки"),
                C("Direction", "DSCODE", "Направление: BUY — покупка, SELL — продажа"),
                C("SecurityID", "DSIDENTIFIER", "ID ценной бумаги"),
                C("ISIN", "DSISIN", "Код ISIN ценной бумаги"),
                C("SecurityName", "DSVARCHAR255", "Наименование ценной бумаги"),
                C("Quantity", "DSQUANTITY", "Количество бумаг, шт."),
                C("Price", "DSPRICE", "Цена одной бумаги"),
                C("Amount", "DSMONEY", "Сумма сделки"),
                C("CurrencyCode", "DSCURRCODE", "Валюта сделки"),
                C("AccountID", "DSIDENTIFIER", "ID счёта, по которому заключена сделка"),
            ),
        ),
    ),
    errors=(ErrorSpec(50303, "Входная таблица пуста"),),
)

# --- Security, deposit, card --------------------------------------------------------------------

API_SEC_FIND_BY_ISIN = ApiSpec(
    name="API_Sec_FindByISIN",
    object_key="Sec",
    title="Поиск ценной бумаги по ISIN",
    description=(
        "Метод находит ценную бумагу по коду ISIN и возвращает её параметры: наименование, эмитента, "
        "номинал, валюту номинала и дату погашения.\n\n"
        "Сценарии использования:\n"
        "1. Клиент назвал ISIN — получить SecurityID и параметры выпуска.\n"
        "2. Проверка даты погашения облигации."
    ),
    params=(ParamSpec("ISIN", "DSISIN", True, "Код ISIN, 12 символов"),),
    output_tables=(
        TableSpec(
            "pAPI_Security_Info",
            "out",
            "Параметры ценной бумаги",
            (
                C("SecurityID", "DSIDENTIFIER", "ID ценной бумаги"),
                C("ISIN", "DSISIN", "Код ISIN"),
                C("SecurityName", "DSVARCHAR255", "Наименование выпуска"),
                C("IssuerName", "DSVARCHAR255", "Наименование эмитента"),
                C("FaceValue", "DSMONEY", "Номинал одной бумаги"),
                CURRENCY,
                C("MaturityDate", "DSDATE", "Дата погашения; пусто — бессрочная (акция)"),
            ),
        ),
    ),
    errors=(ErrorSpec(50401, "Ценная бумага с указанным ISIN не найдена"),),
)

DEPOSIT_COLS = (
    C("DepositID", "DSIDENTIFIER", "ID вклада"),
    PERSON_ID,
    C("ContractNumber", "DSCONTRACTNUMBER", "Номер договора вклада"),
    C("ProductName", "DSVARCHAR255", "Наименование вкладного продукта"),
    C("OpenDate", "DSDATE", "Дата открытия вклада"),
    C("EndDate", "DSDATE", "Дата окончания срока вклада; пусто — до востребования"),
    C("Amount", "DSMONEY", "Текущая сумма вклада"),
    C("Rate", "DSPERCENT", "Процентная ставка, % годовых"),
    CURRENCY,
    C("AccountID", "DSIDENTIFIER", "ID депозитного счёта вклада"),
)

API_DEP_FIND_LIST_BY_PERSON_ID = ApiSpec(
    name="API_Dep_FindListByPersonID",
    object_key="Dep",
    title="Вклады физического лица",
    description=(
        "Метод возвращает вклады (депозиты) физического лица: договор, продукт, срок, сумму, ставку и "
        "депозитный счёт. @OnlyOpenFlag = 1 оставляет только действующие вклады.\n\n"
        "Сценарии использования:\n"
        "1. Ответ на вопрос «какие вклады у клиента».\n"
        "2. Подбор вклада для пролонгации или досрочного закрытия."
    ),
    params=(
        ParamSpec("PersonID", "DSIDENTIFIER", True, "ID физического лица — вкладчика"),
        ParamSpec("OnlyOpenFlag", "DSTINYINT", False, "1 — только действующие вклады, 0 или пусто — все"),
    ),
    output_tables=(TableSpec("pAPI_Deposit_List", "out", "Вклады физического лица", DEPOSIT_COLS),),
    errors=(ErrorSpec(50104, "Физическое лицо с указанным ID не найдено"),),
)

API_DEP_FIND_BY_ID = ApiSpec(
    name="API_Dep_FindByID",
    object_key="Dep",
    title="Данные вклада по ID",
    description=(
        "Метод возвращает данные вклада по его ID, включая признак капитализации процентов.\n\n"
        "Сценарии использования:\n"
        "1. Просмотр условий вклада, выбранного из списка вкладов клиента.\n"
        "2. Проверка, капитализируются ли проценты по вкладу."
    ),
    params=(
        ParamSpec("DepositID", "DSIDENTIFIER", True, "ID вклада (из API_Dep_FindListByPersonID.DepositID)"),
    ),
    output_tables=(
        TableSpec(
            "pAPI_Deposit_Info",
            "out",
            "Данные вклада",
            (
                *DEPOSIT_COLS,
                C("CapitalizationFlag", "DSFLAG", "1 — проценты капитализируются, 0 — выплачиваются"),
            ),
        ),
    ),
    errors=(ErrorSpec(50501, "Вклад с указанным ID не найден"),),
)

API_CARD_FIND_LIST_BY_ACC_ID = ApiSpec(
    name="API_Card_FindListByAccID",
    object_key="Card",
    title="Карты, выпущенные к счёту",
    description=(
        "Метод возвращает банковские карты, выпущенные к счёту: маскированный номер, срок действия и "
        "статус. Полный номер карты не возвращается.\n\n"
        "Сценарии использования:\n"
        "1. Ответ на вопрос «какие карты есть у клиента» (после поиска счетов клиента).\n"
        "2. Проверка статуса карты перед перевыпуском."
    ),
    params=(
        ParamSpec(
            "AccountID",
            "DSIDENTIFIER",
            True,
            "ID карточного счёта (из API_Acc_FindListByListOwnerID.AccountID)",
        ),
    ),
    output_tables=(
        TableSpec(
            "pAPI_Card_List",
            "out",
            "Карты счёта",
            (
                C("CardID", "DSIDENTIFIER", "ID карты"),
                ACCOUNT_ID,
                C("CardMask", "DSCARDMASK", "Маскированный номер карты"),
                C("ExpDate", "DSDATE", "Срок действия карты (последний день месяца)"),
                C("CardStatus", "DSCODE", "Статус карты: ACT — активна, BLK — заблокирована, CLS — закрыта"),
            ),
        ),
    ),
    errors=(ErrorSpec(50004, "Счёт с указанным ID не найден"),),
)
