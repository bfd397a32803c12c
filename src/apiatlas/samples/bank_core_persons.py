"""The sample bank's core APIs of persons and their addresses (docs/sample-bank.md), with their texts."""

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
