"""A small bilingual catalog for the search tests (built in code, indexed for real)."""

from __future__ import annotations

from apiatlas.catalog.model import Api, BusinessObject, Catalog, Param

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
