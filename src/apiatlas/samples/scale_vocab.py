"""Vocabulary of the scale generator: bank modules, method qualifiers and extra session tables."""

from __future__ import annotations

from dataclasses import dataclass

from apiatlas.samples.spec import ColumnSpec, ParamSpec


@dataclass(frozen=True)
class Module:
    """A module of the bank core system; generated objects are (module, entity) pairs."""

    name: str  # English, prefixes the object name: 'Treasury' -> 'TreasuryAccount'
    code: str  # prefixes the abbreviation: 'Tr' -> 'TrAcc'
    title: str  # Russian, e.g. 'Казначейство'


MODULES: tuple[Module, ...] = (
    Module("Treasury", "Tr", "Казначейство"),
    Module("Depository", "Dp", "Депозитарий"),
    Module("RetailCredit", "Rc", "Кредиты физическим лицам"),
    Module("CorpCredit", "Cc", "Кредиты юридическим лицам"),
    Module("Cards", "Cd", "Пластиковые карты"),
    Module("CurrencyControl", "Vk", "Валютный контроль"),
    Module("CashDesk", "Ks", "Касса"),
    Module("Settlement", "St", "Расчёты"),
    Module("Interbank", "Mb", "Межбанковские кредиты"),
    Module("Brokerage", "Br", "Брокерское обслуживание"),
    Module("TrustManagement", "Tm", "Доверительное управление"),
    Module("Leasing", "Ls", "Лизинг"),
    Module("Factoring", "Fc", "Факторинг"),
    Module("Mortgage", "Mg", "Ипотека"),
    Module("Payroll", "Zp", "Зарплатные проекты"),
    Module("Acquiring", "Aq", "Эквайринг"),
    Module("RemoteBanking", "Db", "Дистанционное обслуживание"),
    Module("Compliance", "Cp", "Комплаенс"),
    Module("FinMonitoring", "Fm", "Финансовый мониторинг"),
    Module("Reporting", "Rp", "Обязательная отчётность"),
    Module("TaxAgent", "Tx", "Налоговый агент"),
    Module("Collection", "Cl", "Взыскание задолженности"),
    Module("Collateral", "Zl", "Залоговое обеспечение"),
    Module("Guarantees", "Gr", "Гарантии и аккредитивы"),
    Module("Letters", "Lc", "Аккредитивы"),
    Module("Custody", "Cs", "Хранение ценностей"),
    Module("SafeDeposit", "Sf", "Аренда сейфовых ячеек"),
    Module("Insurance", "Is", "Страховые продукты"),
    Module("Pension", "Pn", "Пенсионные программы"),
    Module("Bonus", "Bn", "Программы лояльности"),
    Module("Tariffing", "Tf", "Тарификация"),
    Module("Accounting", "Bu", "Бухгалтерский учёт"),
    Module("Budget", "Bg", "Бюджетирование"),
    Module("Reserves", "Rz", "Резервы на возможные потери"),
    Module("Risk", "Rk", "Управление рисками"),
    Module("Limits", "Lm", "Лимиты контрагентов"),
    Module("Correspondent", "Kr", "Корреспондентские отношения"),
    Module("Swift", "Sw", "Международные переводы"),
    Module("FastPayments", "Sb", "Система быстрых платежей"),
    Module("Transfers", "Pr", "Денежные переводы без открытия счёта"),
    Module("Utilities", "Ku", "Коммунальные платежи"),
    Module("Escrow", "Es", "Эскроу-счета"),
    Module("Nominal", "Nm", "Номинальные счета"),
    Module("Archive", "Ar", "Архив документов"),
    Module("Workflow", "Wf", "Документооборот"),
    Module("Branches", "Fl", "Филиальная сеть"),
    Module("Staff", "Hr", "Кадры"),
    Module("Audit", "Au", "Внутренний аудит"),
    Module("Clearing", "Kl", "Клиринг"),
    Module("Metals", "Dm", "Драгоценные металлы"),
    Module("Bills", "Vx", "Векселя"),
    Module("Derivatives", "Pf", "Производные инструменты"),
    Module("Repo", "Rr", "Операции РЕПО"),
    Module("Fx", "Fx", "Валютно-обменные операции"),
    Module("Ats", "At", "Банкоматы и терминалы"),
    Module("Crm", "Cr", "Работа с клиентами"),
    Module("Marketing", "Mk", "Маркетинговые кампании"),
    Module("Scoring", "Sk", "Кредитный скоринг"),
    Module("Bureau", "Bk", "Бюро кредитных историй"),
    Module("Notary", "Nt", "Нотариальные и наследственные дела"),
)


@dataclass(frozen=True)
class Qualifier:
    """A suffix that turns a family method into a variant: ``FindListByID`` -> ``FindListByIDForPeriod``."""

    suffix: str
    title: str
    params: tuple[ParamSpec, ...] = ()


QUALIFIERS: tuple[Qualifier, ...] = (
    Qualifier("Ext", " (расширенный состав полей)"),
    Qualifier("Short", " (краткий состав полей)"),
    Qualifier(
        "ForPeriod",
        " за период",
        (
            ParamSpec("DateFrom", "DSDATE", True, "Начало периода"),
            ParamSpec("DateTo", "DSDATE", True, "Конец периода"),
        ),
    ),
    Qualifier(
        "ByBranch", " по подразделению", (ParamSpec("BranchCode", "DSCODE", True, "Код подразделения"),)
    ),
    Qualifier("ByStatus", " по статусу", (ParamSpec("Status", "DSCODE", True, "Код статуса"),)),
    Qualifier("ByDate", " на дату", (ParamSpec("OperDate", "DSDATE", True, "Дата"),)),
    Qualifier("Arch", " (архив)", (ParamSpec("ArchDate", "DSDATE", False, "Дата архива"),)),
    Qualifier("Batch", " (пакетный режим)", (ParamSpec("BatchSize", "DSINT", False, "Размер пакета"),)),
    Qualifier("Online", " (онлайн-канал)", (ParamSpec("ChannelCode", "DSCODE", False, "Код канала"),)),
    Qualifier("ForReport", " для отчётности", (ParamSpec("ReportDate", "DSDATE", True, "Отчётная дата"),)),
    Qualifier("V2", " (версия 2)"),
    Qualifier("Ex", " (с режимом)", (ParamSpec("Mode", "DSTINYINT", False, "Режим работы метода"),)),
    Qualifier(
        "ByUser", " по пользователю", (ParamSpec("UserName", "DSVARNAME", True, "Логин пользователя"),)
    ),
    Qualifier("Full", " (полные данные)"),
    Qualifier(
        "ByGUID", " по внешнему ключу", (ParamSpec("ExtGUID", "DSGUID", True, "Внешний ключ интеграции"),)
    ),
)

# Extra output tables the generator adds to reach the real proportion of table pages per API.
EXTRA_TABLES: tuple[tuple[str, str, tuple[ColumnSpec, ...]], ...] = (
    (
        "Err",
        "Ошибки и предупреждения обработки",
        (ColumnSpec("ErrCode", "DSINT", "Код ошибки"), ColumnSpec("ErrText", "DSCOMMENT", "Текст ошибки")),
    ),
    (
        "Total",
        "Итоги",
        (
            ColumnSpec("RowCount", "DSINT", "Количество строк"),
            ColumnSpec("TotalAmount", "DSMONEY", "Итоговая сумма"),
            ColumnSpec("CurrencyCode", "DSCURRCODE", "Валюта итога"),
        ),
    ),
    (
        "Link",
        "Связанные объекты",
        (
            ColumnSpec("LinkType", "DSCODE", "Тип связи"),
            ColumnSpec("LinkedID", "DSIDENTIFIER", "ID связанного объекта"),
        ),
    ),
    (
        "Doc",
        "Документы-основания",
        (
            ColumnSpec("DocNumber", "DSDOCNUMBER", "Номер документа"),
            ColumnSpec("DocDate", "DSDATE", "Дата документа"),
            ColumnSpec("DocComment", "DSCOMMENT", "Содержание"),
        ),
    ),
    (
        "Log",
        "Журнал выполнения",
        (
            ColumnSpec("EventTime", "DSDATETIME", "Время события"),
            ColumnSpec("EventText", "DSVARCHAR255", "Событие"),
        ),
    ),
)
