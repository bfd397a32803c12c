"""The words the sample bank's business objects share: Russian nouns, links to a parent object, attributes
and the core API families."""

from __future__ import annotations

from apiatlas.samples.families import Noun, ParentLink
from apiatlas.samples.spec import ColumnSpec

C = ColumnSpec

PERSON = Noun("физическое лицо", "физического лица", "физических лиц")
ACCOUNT = Noun("счёт", "счёта", "счетов")
ORG = Noun("юридическое лицо", "юридического лица", "юридических лиц")
CREDIT = Noun("кредитный договор", "кредитного договора", "кредитных договоров")

BY_PERSON = ParentLink("PersonID", "PersonID", "API_Prs_FindListByFIO", "PersonID", PERSON)
BY_OWNER = ParentLink("OwnerID", "PersonID", "API_Prs_FindListByFIO", "OwnerID", PERSON)
BY_CLIENT = ParentLink("ClientID", "PersonID", "API_Prs_FindListByFIO", "ClientID", PERSON)
BY_ACCOUNT = ParentLink("AccountID", "AccountID", "API_Acc_FindListByListOwnerID", "AccID", ACCOUNT)
BY_ORG = ParentLink("OrgID", "OrgID", "API_Org_FindByNumber", "OrgID", ORG)
BY_CREDIT = ParentLink("CreditID", "CreditID", "API_Crd_FindListByBorrowerID", "CreditID", CREDIT)

NAME = C("Name", "DSVARCHAR255", "Наименование")
BRIEF = C("Brief", "DSBRIEFNAME", "Краткое наименование (мнемоника)")
STATUS = C("Status", "DSCODE", "Код статуса")
OPEN_DATE = C("OpenDate", "DSDATE", "Дата открытия")
CLOSE_DATE = C("CloseDate", "DSDATE", "Дата закрытия")
AMOUNT = C("Amount", "DSMONEY", "Сумма")
CURRENCY = C("CurrencyCode", "DSCURRCODE", "Код валюты")
COMMENT = C("Comment", "DSCOMMENT", "Комментарий")
BRANCH = C("BranchCode", "DSCODE", "Код подразделения")
CONTRACT = C("ContractNumber", "DSCONTRACTNUMBER", "Номер договора")
DEAL_NUMBER = C("DealNumber", "DSDEALNUMBER", "Номер сделки")

READ_CORE = ("FindByID", "FindListByID", "FindByNumber", "FindListByParent")
WRITE_CORE = ("Add", "Upd", "Del")
