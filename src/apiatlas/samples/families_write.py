"""Write API families (Add, Upd, Del, Open, Close, Export, ...) built from an entity profile."""

from __future__ import annotations

from collections.abc import Callable

from apiatlas.samples.families import (
    DATE_FROM,
    DATE_TO,
    EntityProfile,
    attr_table,
    error,
    family_api,
    id_col,
    id_param,
    list_cols,
    not_found,
    result_table,
    scenarios,
)
from apiatlas.samples.spec import ApiSpec, ColumnSpec, ParamSpec, TableSpec


def add(p: EntityProfile) -> ApiSpec:
    params = tuple(ParamSpec(pl.field, "DSIDENTIFIER", True, f"ID {pl.noun.gen}") for pl in p.parents)
    if p.number:
        params += (
            ParamSpec(
                p.number.name,
                p.number.domain_type,
                False,
                p.number.description + "; если не задан — присваивается автоматически",
            ),
        )
    params += tuple(ParamSpec(c.name, c.domain_type, False, c.description) for c in p.attributes[:5])
    return family_api(
        p,
        "Add",
        f"Создание {p.noun.gen}",
        f"Метод создаёт новую запись ({p.noun.nom}) и возвращает её ID."
        + scenarios("Оформление нового продукта"),
        params=params,
        input_tables=(attr_table(p, "in"),),
        output_tables=(TableSpec(f"pAPI_{p.name}_New", "out", "ID созданной записи", (id_col(p),)),),
        errors=(
            error(p, 10, "Не заполнены обязательные реквизиты"),
            error(p, 11, "Запись с таким номером уже существует"),
        ),
    )


def upd(p: EntityProfile) -> ApiSpec:
    params = (
        id_param(p),
        *(
            ParamSpec(c.name, c.domain_type, False, c.description + "; не задано — не меняется")
            for c in p.attributes[:4]
        ),
    )
    return family_api(
        p,
        "Upd",
        f"Изменение {p.noun.gen}",
        f"Метод изменяет реквизиты {p.noun.gen}; дополнительные атрибуты передаются входной таблицей.",
        params=params,
        input_tables=(attr_table(p, "in"),),
        errors=(not_found(p), error(p, 12, "Изменение запрещено в текущем статусе")),
    )


def delete(p: EntityProfile) -> ApiSpec:
    return family_api(
        p,
        "Del",
        f"Удаление {p.noun.gen}",
        f"Метод удаляет ошибочно созданную запись ({p.noun.nom}), если по ней не было операций.",
        params=(id_param(p),),
        errors=(not_found(p), error(p, 13, "По записи есть операции, удаление невозможно")),
    )


def status_change(method: str, title: str, text: str, code: int) -> Callable[[EntityProfile], ApiSpec]:
    def build(p: EntityProfile) -> ApiSpec:
        return family_api(
            p,
            method,
            f"{title} {p.noun.gen}",
            f"Метод выполняет операцию «{title.lower()}» для {p.noun.gen}. {text}",
            params=(
                id_param(p),
                ParamSpec("OperDate", "DSDATE", True, "Дата операции"),
                ParamSpec("Comment", "DSCOMMENT", False, "Основание операции"),
            ),
            output_tables=(result_table(p),),
            errors=(
                not_found(p),
                error(p, code, f"Операция «{title.lower()}» недопустима в текущем статусе"),
            ),
        )

    return build


def export(p: EntityProfile) -> ApiSpec:
    return family_api(
        p,
        "Export",
        f"Выгрузка {p.noun.gen_pl}",
        f"Метод формирует выгрузку {p.noun.gen_pl} за период для внешних систем.",
        params=(DATE_FROM, DATE_TO),
        output_tables=(TableSpec(f"pAPI_{p.name}_Export", "out", "Строки выгрузки", list_cols(p)),),
    )


def import_(p: EntityProfile) -> ApiSpec:
    return family_api(
        p,
        "Import",
        f"Загрузка {p.noun.gen_pl}",
        f"Метод выполняет загрузку {p.noun.gen_pl} из входной таблицы; ошибки возвращаются построчно.",
        input_tables=(TableSpec(f"pAPI_{p.name}_Import", "in", "Загружаемые записи", list_cols(p)[1:]),),
        output_tables=(
            TableSpec(
                f"pAPI_{p.name}_ImportErr",
                "out",
                "Ошибки загрузки",
                (
                    ColumnSpec("RowNum", "DSINT", "Номер строки входной таблицы"),
                    ColumnSpec("ErrorText", "DSCOMMENT", "Текст ошибки"),
                ),
            ),
        ),
    )


def print_form(p: EntityProfile) -> ApiSpec:
    return family_api(
        p,
        "Print",
        f"Печатная форма {p.noun.gen}",
        f"Метод формирует печатную форму {p.noun.gen} построчно.",
        params=(id_param(p), ParamSpec("FormCode", "DSCODE", False, "Код печатной формы")),
        output_tables=(
            TableSpec(
                f"pAPI_{p.name}_PrintForm",
                "out",
                "Строки печатной формы",
                (
                    ColumnSpec("LineNum", "DSINT", "Номер строки"),
                    ColumnSpec("LineText", "DSCOMMENT", "Текст строки"),
                ),
            ),
        ),
    )
