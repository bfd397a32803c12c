"""The sample bank's domain types (``DS*``) with their base SQL types and meanings."""

from __future__ import annotations

from apiatlas.samples.spec import DomainTypeSpec

DOMAIN_TYPES: tuple[DomainTypeSpec, ...] = (
    DomainTypeSpec("DSIDENTIFIER", "numeric(15,0)", "Идентификатор сущности"),
    DomainTypeSpec("DSINT", "int", "Целое число"),
    DomainTypeSpec("DSSMALLINT", "smallint", "Малое целое число (порядковый номер, количество дней)"),
    DomainTypeSpec("DSTINYINT", "tinyint", "Признак или малое целое 0–255 (режим, флаг фильтра)"),
    DomainTypeSpec("DSFLAG", "tinyint", "Логический признак: 1 — да, 0 — нет"),
    DomainTypeSpec("DSMONEY", "numeric(19,2)", "Денежная сумма в валюте операции"),
    DomainTypeSpec("DSPRICE", "numeric(19,8)", "Цена за единицу (ценной бумаги, валюты)"),
    DomainTypeSpec("DSQUANTITY", "numeric(19,4)", "Количество (ценных бумаг, единиц товара)"),
    DomainTypeSpec("DSPERCENT", "numeric(9,4)", "Процентная ставка, % годовых"),
    DomainTypeSpec("DSRATE", "numeric(19,8)", "Курс валюты или коэффициент пересчёта"),
    DomainTypeSpec("DSDATE", "date", "Дата (без времени)"),
    DomainTypeSpec("DSDATETIME", "datetime", "Дата и время"),
    DomainTypeSpec("DSTIME", "char(8)", "Время в формате ЧЧ:ММ:СС"),
    DomainTypeSpec("DSVARFULLNAME", "varchar(160)", "Фамилия или полное наименование"),
    DomainTypeSpec("DSVARNAME", "varchar(40)", "Имя, отчество, короткое наименование"),
    DomainTypeSpec("DSBRIEFNAME", "varchar(30)", "Краткое наименование (мнемоника)"),
    DomainTypeSpec("DSVARCHAR255", "varchar(255)", "Строка до 255 символов"),
    DomainTypeSpec("DSCOMMENT", "varchar(1000)", "Комментарий, назначение, произвольный текст"),
    DomainTypeSpec("DSCODE", "varchar(10)", "Код из справочника (тип, статус, вид)"),
    DomainTypeSpec("DSACCNUMBER", "varchar(25)", "Номер лицевого счёта (20 цифр)"),
    DomainTypeSpec("DSINN", "varchar(12)", "ИНН: 10 цифр для ЮЛ, 12 цифр для ФЛ"),
    DomainTypeSpec("DSKPP", "char(9)", "КПП организации"),
    DomainTypeSpec("DSOGRN", "varchar(15)", "ОГРН (13 цифр) или ОГРНИП (15 цифр)"),
    DomainTypeSpec("DSSNILS", "varchar(14)", "СНИЛС в формате XXX-XXX-XXX XX"),
    DomainTypeSpec("DSBIC", "char(9)", "БИК банка"),
    DomainTypeSpec("DSSWIFT", "varchar(11)", "SWIFT-код (BIC ISO 9362)"),
    DomainTypeSpec("DSISIN", "char(12)", "Код ISIN ценной бумаги"),
    DomainTypeSpec("DSCURRCODE", "char(3)", "Цифровой код валюты по ОКВ (810, 840, 978)"),
    DomainTypeSpec("DSCOUNTRYCODE", "char(3)", "Цифровой код страны по ОКСМ"),
    DomainTypeSpec("DSPHONE", "varchar(20)", "Номер телефона в формате +7XXXXXXXXXX"),
    DomainTypeSpec("DSEMAIL", "varchar(100)", "Адрес электронной почты"),
    DomainTypeSpec("DSPOSTCODE", "varchar(6)", "Почтовый индекс"),
    DomainTypeSpec("DSADDRESS", "varchar(500)", "Адрес одной строкой"),
    DomainTypeSpec("DSDEALNUMBER", "varchar(30)", "Номер сделки"),
    DomainTypeSpec("DSCONTRACTNUMBER", "varchar(40)", "Номер договора"),
    DomainTypeSpec("DSDOCNUMBER", "varchar(20)", "Номер документа (паспорта, платёжного поручения)"),
    DomainTypeSpec("DSDOCSERIES", "varchar(10)", "Серия документа, удостоверяющего личность"),
    DomainTypeSpec("DSCARDMASK", "varchar(19)", "Маскированный номер карты (первые 6 и последние 4 цифры)"),
    DomainTypeSpec("DSOKVED", "varchar(8)", "Код вида деятельности по ОКВЭД"),
    DomainTypeSpec(
        "DSGUID", "uniqueidentifier", "Глобальный уникальный идентификатор (внешний ключ интеграции)"
    ),
)

DOMAIN_TYPE_NAMES: frozenset[str] = frozenset(t.name for t in DOMAIN_TYPES)
