"""Entity profiles and the read API families (FindByID, FindListBy<Parent>, ...) built from them."""

from __future__ import annotations

from dataclasses import dataclass

from apiatlas.samples.spec import ApiSpec, ColumnSpec, ErrorSpec, ParamSpec, TableDirection, TableSpec


@dataclass(frozen=True)
class Noun:
    """Russian forms of an entity name: ``счёт``, ``счёта``, ``счетов``."""

    nom: str
    gen: str
    gen_pl: str


@dataclass(frozen=True)
class ParentLink:
    """The entity belongs to a parent: the child carries ``field`` holding the parent's ``source_field``."""

    field: str  # column/parameter name in the child, e.g. 'OwnerID'
    source_field: str  # the parent's id field, e.g. 'PersonID'
    source_api: str  # an API producing it, e.g. 'API_Prs_FindListByFIO'
    method: str  # method-name suffix, e.g. 'PersonID' -> FindListByPersonID
    noun: Noun  # the parent, e.g. физическое лицо


@dataclass(frozen=True)
class EntityProfile:
    """What the families need to know about a business object."""

    key: str  # abbreviation used as the API prefix
    name: str  # English name used in table names
    noun: Noun
    id_field: str
    attributes: tuple[ColumnSpec, ...]
    number: ColumnSpec | None = None  # a user-facing number to search by
    parents: tuple[ParentLink, ...] = ()
    error_base: int = 50000


def unique_columns(cols: tuple[ColumnSpec, ...]) -> tuple[ColumnSpec, ...]:
    """``cols`` without repeated names (the first one wins)."""
    kept: dict[str, ColumnSpec] = {}
    for c in cols:
        kept.setdefault(c.name, c)
    return tuple(kept.values())


def id_col(p: EntityProfile) -> ColumnSpec:
    return ColumnSpec(p.id_field, "DSIDENTIFIER", f"ID {p.noun.gen}")


def _parent_cols(p: EntityProfile) -> tuple[ColumnSpec, ...]:
    return tuple(
        ColumnSpec(pl.field, "DSIDENTIFIER", f"ID {pl.noun.gen} ({pl.source_field})") for pl in p.parents
    )


def _info_cols(p: EntityProfile) -> tuple[ColumnSpec, ...]:
    num = (p.number,) if p.number else ()
    return unique_columns((id_col(p), *_parent_cols(p), *num, *p.attributes))


def list_cols(p: EntityProfile) -> tuple[ColumnSpec, ...]:
    num = (p.number,) if p.number else ()
    return unique_columns((id_col(p), *_parent_cols(p), *num, *p.attributes[:4]))


def info_table(p: EntityProfile) -> TableSpec:
    return TableSpec(f"pAPI_{p.name}_Info", "out", f"Данные {p.noun.gen}", _info_cols(p))


def list_table(p: EntityProfile) -> TableSpec:
    return TableSpec(f"pAPI_{p.name}_List", "out", f"Список {p.noun.gen_pl}", list_cols(p))


def attr_table(p: EntityProfile, direction: TableDirection) -> TableSpec:
    cols = (
        id_col(p),
        ColumnSpec("AttrCode", "DSCODE", "Код дополнительного атрибута"),
        ColumnSpec("AttrValue", "DSVARCHAR255", "Значение атрибута"),
    )
    return TableSpec(f"pAPI_{p.name}_Attr", direction, "Дополнительные атрибуты", cols)


def result_table(p: EntityProfile) -> TableSpec:
    cols = (
        id_col(p),
        ColumnSpec("Status", "DSCODE", "Статус после операции"),
        ColumnSpec("OperDate", "DSDATE", "Дата операции"),
    )
    return TableSpec(f"pAPI_{p.name}_OperResult", "out", "Результат операции", cols)


def id_param(p: EntityProfile) -> ParamSpec:
    return ParamSpec(p.id_field, "DSIDENTIFIER", True, f"ID {p.noun.gen}")


def error(p: EntityProfile, offset: int, text: str) -> ErrorSpec:
    return ErrorSpec(p.error_base + offset, text)


def not_found(p: EntityProfile) -> ErrorSpec:
    return error(p, 1, f"Запись не найдена: {p.noun.nom} с указанным ID отсутствует")


def scenarios(*items: str) -> str:
    return "\n".join(["", "", "Сценарии использования:", *(f"{i}. {s}" for i, s in enumerate(items, 1))])


def family_api(
    p: EntityProfile,
    method: str,
    title: str,
    body: str,
    *,
    params: tuple[ParamSpec, ...] = (),
    input_tables: tuple[TableSpec, ...] = (),
    output_tables: tuple[TableSpec, ...] = (),
    errors: tuple[ErrorSpec, ...] = (),
) -> ApiSpec:
    """An API named ``API_<key>_<method>`` of the object ``p``."""
    return ApiSpec(
        name=f"API_{p.key}_{method}",
        object_key=p.key,
        title=title,
        description=body,
        params=params,
        input_tables=input_tables,
        output_tables=output_tables,
        errors=errors,
    )


OPER_DATE = ParamSpec(
    "OperDate", "DSDATE", False, "Дата операционного дня; по умолчанию — текущий операционный день"
)
DATE_FROM = ParamSpec("DateFrom", "DSDATE", False, "Начало периода (включительно)")
DATE_TO = ParamSpec("DateTo", "DSDATE", False, "Конец периода (включительно)")
BRANCH = ParamSpec("BranchCode", "DSCODE", True, "Код подразделения банка")
CHECK_TABLE_COLS = (
    ColumnSpec("ResultFlag", "DSFLAG", "1 — проверка пройдена, 0 — не пройдена"),
    ColumnSpec("ResultText", "DSCOMMENT", "Пояснение результата проверки"),
)


def find_by_id(p: EntityProfile) -> ApiSpec:
    return family_api(
        p,
        "FindByID",
        f"Данные {p.noun.gen} по ID",
        f"Метод возвращает полные данные {p.noun.gen} по его идентификатору."
        + scenarios(
            f"Просмотр карточки {p.noun.gen} после поиска", f"Получение реквизитов {p.noun.gen} для документа"
        ),
        params=(id_param(p),),
        output_tables=(info_table(p), attr_table(p, "out")),
        errors=(not_found(p),),
    )


def find_list_by_id(p: EntityProfile) -> ApiSpec:
    src = TableSpec(f"pAPI_{p.name}_ID", "in", f"Список ID: {p.noun.gen_pl}", (id_col(p),))
    return family_api(
        p,
        "FindListByID",
        f"Данные {p.noun.gen_pl} по списку ID",
        f"Пакетный метод: по списку идентификаторов во входной таблице возвращает данные {p.noun.gen_pl}."
        + scenarios(
            f"Получение данных нескольких записей ({p.noun.gen_pl}) за один вызов",
            "Обогащение списка ID, найденного другим методом",
        ),
        input_tables=(src,),
        output_tables=(list_table(p),),
        errors=(error(p, 2, "Входная таблица пуста"),),
    )


def find_by_number(p: EntityProfile) -> ApiSpec:
    assert p.number is not None
    return family_api(
        p,
        "FindByNumber",
        f"Поиск {p.noun.gen} по номеру",
        f"Метод находит запись ({p.noun.nom}) по номеру ({p.number.description.lower()}) "
        "и возвращает её данные, включая ID."
        + scenarios(
            f"Клиент называет номер — нужно найти {p.noun.nom}",
            f"Получение ID {p.noun.gen} для других методов",
        ),
        params=(ParamSpec(p.number.name, p.number.domain_type, True, p.number.description),),
        output_tables=(info_table(p),),
        errors=(error(p, 3, "Не найдена запись с указанным номером"),),
    )


def find_list_by_parent(p: EntityProfile, link: ParentLink) -> ApiSpec:
    return family_api(
        p,
        f"FindListBy{link.method}",
        f"Список {p.noun.gen_pl} {link.noun.gen}",
        f"Метод возвращает список {p.noun.gen_pl}, относящихся к указанному объекту "
        f"«{link.noun.nom}» (по его ID)."
        + scenarios(
            f"Просмотр всех {p.noun.gen_pl} {link.noun.gen}",
            f"Переход от {link.noun.gen} к списку {p.noun.gen_pl}",
        ),
        params=(ParamSpec(link.field, "DSIDENTIFIER", True, f"ID {link.noun.gen} ({link.source_field})"),),
        output_tables=(list_table(p),),
        errors=(error(p, 4, f"Не найден объект «{link.noun.nom}» с указанным ID"),),
    )


def find_list_by_list_parent(p: EntityProfile, link: ParentLink) -> ApiSpec:
    src = TableSpec(
        f"pAPI_{p.name}_{link.method}",
        "in",
        f"Список: {link.noun.nom}",
        (ColumnSpec(link.field, "DSIDENTIFIER", f"ID {link.noun.gen} ({link.source_field})"),),
    )
    return family_api(
        p,
        f"FindListByList{link.method}",
        f"Поиск {p.noun.gen_pl} по списку ({link.noun.nom})",
        f"Пакетный метод: возвращает {p.noun.gen_pl} для каждого ID во входной таблице ({link.noun.nom})."
        + scenarios(
            f"Получение {p.noun.gen_pl} сразу для нескольких записей", "Шаг цепочки после поиска списком"
        ),
        input_tables=(src,),
        output_tables=(list_table(p),),
        errors=(error(p, 5, "Входная таблица пуста"),),
    )


def get_history(p: EntityProfile) -> ApiSpec:
    cols = (
        id_col(p),
        ColumnSpec("ChangeDate", "DSDATETIME", "Дата и время изменения"),
        ColumnSpec("FieldName", "DSVARNAME", "Изменённый реквизит"),
        ColumnSpec("OldValue", "DSVARCHAR255", "Значение до изменения"),
        ColumnSpec("NewValue", "DSVARCHAR255", "Значение после изменения"),
        ColumnSpec("UserName", "DSVARNAME", "Пользователь, внёсший изменение"),
    )
    return family_api(
        p,
        "GetHistory",
        f"История изменений {p.noun.gen}",
        f"Метод возвращает журнал изменений реквизитов {p.noun.gen} за период."
        + scenarios("Разбор претензии клиента", "Аудит изменений реквизитов"),
        params=(id_param(p), DATE_FROM, DATE_TO),
        output_tables=(TableSpec(f"pAPI_{p.name}_Hist", "out", "Журнал изменений", cols),),
        errors=(not_found(p),),
    )


def get_status(p: EntityProfile) -> ApiSpec:
    cols = (
        id_col(p),
        ColumnSpec("Status", "DSCODE", "Код статуса"),
        ColumnSpec("StatusName", "DSVARNAME", "Наименование статуса"),
        ColumnSpec("StatusDate", "DSDATE", "Дата установки статуса"),
    )
    return family_api(
        p,
        "GetStatus",
        f"Текущий статус {p.noun.gen}",
        f"Метод возвращает текущий статус {p.noun.gen} и дату его установки."
        + scenarios("Проверка, активна ли запись, перед операцией", "Ответ на вопрос клиента о состоянии"),
        params=(id_param(p), OPER_DATE),
        output_tables=(TableSpec(f"pAPI_{p.name}_Status", "out", "Статус", cols),),
        errors=(not_found(p),),
    )


def check_can_close(p: EntityProfile) -> ApiSpec:
    return family_api(
        p,
        "CheckCanClose",
        f"Проверка возможности закрытия {p.noun.gen}",
        f"Метод проверяет, нет ли препятствий для закрытия {p.noun.gen} (незавершённые операции, блокировки)."
        + scenarios("Предварительная проверка перед закрытием", "Объяснение клиенту причины отказа"),
        params=(id_param(p), OPER_DATE),
        output_tables=(TableSpec(f"pAPI_{p.name}_Check", "out", "Результат проверки", CHECK_TABLE_COLS),),
        errors=(not_found(p),),
    )


def brows_by_branch(p: EntityProfile) -> ApiSpec:
    cols = unique_columns((*list_cols(p), ColumnSpec("BranchCode", "DSCODE", "Код подразделения")))
    return family_api(
        p,
        "BrowsByBranch",
        f"Просмотр {p.noun.gen_pl} подразделения",
        f"Метод для экранной формы: постраничный просмотр {p.noun.gen_pl} подразделения банка."
        + scenarios("Работа операциониста со списком", "Выгрузка списка для контроля"),
        params=(BRANCH, OPER_DATE, ParamSpec("PageNum", "DSINT", False, "Номер страницы, с 1")),
        output_tables=(TableSpec(f"pAPI_{p.name}_Brows", "out", "Страница списка", cols),),
    )
