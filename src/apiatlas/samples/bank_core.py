"""The core APIs of the sample bank, exactly as docs/sample-bank.md defines them, with their texts."""

from __future__ import annotations

from apiatlas.samples.spec import ApiSpec, ColumnSpec, ErrorSpec, ParamSpec, TableSpec

C = ColumnSpec

# --- Person -------------------------------------------------------------------------------------

PERSON_ID = C("PersonID", "DSIDENTIFIER", "ID физического лица (PersonID)")
SURNAME = C("SurName", "DSVARFULLNAME", "Фамилия")
FIRSTNAME = C("FirstName", "DSVARNAME", "Имя")
PATRONYMIC = C("Patronymic", "DSVARNAME", "Отчество (при наличии)")
BIRTHDATE = C("BirthDate", "DSDATE", "Дата рождения")
INN = C("INN", "DSINN", "ИНН физического лица (12 цифр)")

PERSON_FIND_LIST_COLS = (PERSON_ID, SURNAME, FIRSTNAME, PATRONYMIC, BIRTHDATE, INN)


def _person_find_list() -> TableSpec:
    return TableSpec("pAPI_Person_FindList", "out", "Найденные физические лица", PERSON_FIND_LIST_COLS)


API_PRS_FIND_LIST_BY_FIO = ApiSpec(
    name="API_Prs_FindListByFIO",
    object_key="Prs",
    title="Поиск физических лиц по ФИО",
    description=(
        "Метод ищет физических лиц — клиентов банка по фамилии и, при необходимости, имени, отчеству "
        "и дате рождения. Поиск по фамилии регистронезависимый, по точному совпадению; имя и отчество "
        "сужают выборку. Возвращает список кандидатов с PersonID — ключом клиента для остальных методов.\n"
        "Если найдено несколько человек (однофамильцы), уточните имя, отчество или дату рождения.\n\n"
        "Сценарии использования:\n"
        "1. Оператор или ассистент ищет клиента, названного по фамилии («найди клиента Иванова»).\n"
        "2. Первый шаг цепочки: PersonID передаётся в API_Acc_FindListByListOwnerID (счета), "
        "API_Dep_FindListByPersonID (вклады), API_Addr_FindListByPersonID (адреса).\n"
        "3. Проверка, не является ли обратившийся уже клиентом банка."
    ),
    params=(
        ParamSpec("SurName", "DSVARFULLNAME", True, "Фамилия клиента (обязательно)"),
        ParamSpec("FirstName", "DSVARNAME", False, "Имя клиента"),
        ParamSpec("Patronymic", "DSVARNAME", False, "Отчество клиента"),
        ParamSpec("BirthDate", "DSDATE", False, "Дата рождения клиента"),
    ),
    output_tables=(_person_find_list(),),
    errors=(
        ErrorSpec(50101, "Не задана фамилия"),
        ErrorSpec(50102, "Слишком короткая строка поиска: фамилия должна содержать не менее 2 символов"),
    ),
)

API_PRS_FIND_LIST_BY_INN = ApiSpec(
    name="API_Prs_FindListByINN",
    object_key="Prs",
    title="Поиск физических лиц по ИНН",
    description=(
        "Метод ищет физических лиц по ИНН (12 цифр). Как правило, возвращает одну запись; несколько "
        "записей означают дубли карточек клиента, которые нужно передать на проверку.\n\n"
        "Сценарии использования:\n"
        "1. Клиент сообщил ИНН — нужно найти его карточку и PersonID.\n"
        "2. Сверка данных при получении выписки из налогового органа."
    ),
    params=(ParamSpec("INN", "DSINN", True, "ИНН физического лица, 12 цифр без пробелов"),),
    output_tables=(_person_find_list(),),
    errors=(ErrorSpec(50103, "Некорректный ИНН: ожидается 12 цифр"),),
)

API_PRS_FIND_BY_ID = ApiSpec(
    name="API_Prs_FindByID",
    object_key="Prs",
    title="Карточка физического лица по ID",
    description=(
        "Метод возвращает карточку физического лица: ФИО, дату рождения, ИНН, контактный телефон, "
        "адрес электронной почты и признак резидентства.\n\n"
        "Сценарии использования:\n"
        "1. Просмотр карточки клиента, выбранного из результатов поиска по ФИО или ИНН.\n"
        "2. Получение контактов клиента для связи с ним."
    ),
    params=(ParamSpec("PersonID", "DSIDENTIFIER", True, "ID физического лица"),),
    output_tables=(
        TableSpec(
            "pAPI_Person_Info",
            "out",
            "Карточка физического лица",
            (
                PERSON_ID,
                SURNAME,
                FIRSTNAME,
                PATRONYMIC,
                BIRTHDATE,
                INN,
                C("Phone", "DSPHONE", "Контактный телефон"),
                C("Email", "DSEMAIL", "Адрес электронной почты"),
                C("ResidentFlag", "DSFLAG", "1 — резидент РФ, 0 — нерезидент"),
            ),
        ),
    ),
    errors=(ErrorSpec(50104, "Физическое лицо с указанным ID не найдено"),),
)

API_PRS_GET_DOC_LIST = ApiSpec(
    name="API_Prs_GetDocList",
    object_key="Prs",
    title="Документы, удостоверяющие личность",
    description=(
        "Метод возвращает документы, удостоверяющие личность физического лица: вид документа, серию, "
        "номер, дату выдачи и кем выдан. Недействительные документы тоже возвращаются.\n\n"
        "Сценарии использования:\n"
        "1. Проверка паспортных данных клиента при идентификации.\n"
        "2. Заполнение реквизитов документа в договоре."
    ),
    params=(
        ParamSpec(
            "PersonID", "DSIDENTIFIER", True, "ID физического лица (из API_Prs_FindListByFIO.PersonID)"
        ),
    ),
    output_tables=(
        TableSpec(
            "pAPI_Person_Doc",
            "out",
            "Документы физического лица",
            (
                PERSON_ID,
                C(
                    "DocType",
                    "DSCODE",
                    "Вид документа: 21 — паспорт РФ, 10 — паспорт иностранного гражданина",
                ),
                C("DocSeries", "DSDOCSERIES", "Серия документа"),
                C("DocNumber", "DSDOCNUMBER", "Номер документа"),
                C("IssueDate", "DSDATE", "Дата выдачи"),
                C("IssuedBy", "DSVARCHAR255", "Кем выдан"),
            ),
        ),
    ),
    errors=(ErrorSpec(50104, "Физическое лицо с указанным ID не найдено"),),
)

# --- Address ------------------------------------------------------------------------------------

API_ADDR_FIND_LIST_BY_PERSON_ID = ApiSpec(
    name="API_Addr_FindListByPersonID",
    object_key="Addr",
    title="Адреса физического лица",
    description=(
        "Метод возвращает адреса физического лица: регистрации, фактического проживания, почтовый. "
        "Тип адреса можно ограничить параметром @AddrType.\n\n"
        "Сценарии использования:\n"
        "1. Ответ на вопрос «какой адрес у клиента».\n"
        "2. Подготовка почтового отправления клиенту (тип адреса POST)."
    ),
    params=(
        ParamSpec("PersonID", "DSIDENTIFIER", True, "ID физического лица"),
        ParamSpec(
            "AddrType",
            "DSCODE",
            False,
            "Тип адреса: REG — регистрации, FACT — фактический, POST — почтовый; не задан — все",
        ),
    ),
    output_tables=(
        TableSpec(
            "pAPI_Address_List",
            "out",
            "Адреса физического лица",
            (
                C("AddressID", "DSIDENTIFIER", "ID адреса"),
                PERSON_ID,
                C("AddrType", "DSCODE", "Тип адреса: REG, FACT, POST"),
                C("PostCode", "DSPOSTCODE", "Почтовый индекс"),
                C("City", "DSVARNAME", "Населённый пункт"),
                C("Street", "DSVARCHAR255", "Улица, дом, квартира"),
                C("FullAddress", "DSADDRESS", "Адрес одной строкой"),
            ),
        ),
    ),
    errors=(ErrorSpec(50201, "Неизвестный тип адреса"),),
)

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

CORE_APIS: tuple[ApiSpec, ...] = (
    API_PRS_FIND_LIST_BY_FIO,
    API_PRS_FIND_LIST_BY_INN,
    API_PRS_FIND_BY_ID,
    API_PRS_GET_DOC_LIST,
    API_ADDR_FIND_LIST_BY_PERSON_ID,
    API_ACC_FIND_LIST_BY_LIST_OWNER_ID,
    API_ACC_FIND_BY_NUMBER,
    API_ACC_FIND_BY_ID,
    API_ACC_GET_REST,
    API_ACC_GET_REST_TURN,
    API_DSEC_FIND_LIST_ID_BY_ACC_ID,
    API_DEAL_SECURITY_FIND_LIST_BY_ID,
    API_SEC_FIND_BY_ISIN,
    API_DEP_FIND_LIST_BY_PERSON_ID,
    API_DEP_FIND_BY_ID,
    API_CARD_FIND_LIST_BY_ACC_ID,
)
CORE_API_NAMES: frozenset[str] = frozenset(a.name for a in CORE_APIS)
