"""Hand-written overlays of the sample bank (``overlays/API_*.md``): when to use an API, what is important."""

from __future__ import annotations

from pathlib import Path

OVERLAYS: dict[str, str] = {
    "API_Acc_GetRest": """\
## Когда использовать
- Получение остатка по счёту
- Для определения текущего баланса («сколько денег на счёте»)
- Проверка достаточности средств перед операцией

## Важно
- Принимает AccountID, а не номер счёта: номер сначала переведите в ID через API_Acc_FindByNumber
- Без @RestDate возвращает остаток на текущий операционный день
- Для оборотов за период — API_Acc_GetRestTurn
- Для справочной информации о счёте — API_Acc_FindByID
- Отличие от API_Acc_FindByID: FindByID возвращает справочные данные, GetRest — остаток

## Зависимости
- AccountID ← API_Acc_FindListByListOwnerID.pAPI_Account_List.AccountID
""",
    "API_Acc_FindByID": """\
## Когда использовать
- Просмотр реквизитов счёта: номер, владелец, валюта, тип, подразделение
- Проверка, открыт ли счёт (CloseDate пусто)

## Важно
- Остаток НЕ возвращает
- Отличие от API_Acc_GetRest: GetRest возвращает остаток, FindByID — справочные данные
- Если известен номер счёта, а не ID, используйте API_Acc_FindByNumber
""",
    "API_Acc_FindByNumber": """\
## Когда использовать
- Клиент или документ называет 20-значный номер счёта
- Нужно узнать владельца счёта по его номеру

## Важно
- Номер передаётся без пробелов и точек
- Возвращает AccountID — дальше по нему работают API_Acc_GetRest и API_Acc_GetRestTurn
- Отличие от API_Acc_FindByID: вход — номер, а не ID; результат тот же
""",
    "API_Acc_GetRestTurn": """\
## Когда использовать
- «Сколько поступило и сколько списано за период»
- Сверка движения средств с выпиской

## Важно
- @DateFrom и @DateTo обязательны
- Отличие от API_Acc_GetRest: GetRest — остаток на одну дату, GetRestTurn — остатки и обороты за период

## Зависимости
- AccountID ← API_Acc_FindListByListOwnerID.pAPI_Account_List.AccountID
""",
    "API_Prs_FindListByFIO": """\
## Когда использовать
- Пользователь называет клиента по фамилии: «найди клиента Иванова»
- Первый шаг почти любой цепочки по клиенту: счета, вклады, адреса, сделки

## Важно
- Фамилия обязательна; однофамильцев может быть много — уточните имя, отчество или дату рождения
- Если результатов несколько, спросите пользователя, какой клиент нужен, а не выбирайте сами
- Возвращает PersonID; в методах счетов он передаётся как OwnerID
- Если известен ИНН — точнее API_Prs_FindListByINN
""",
    "API_Prs_FindListByINN": """\
## Когда использовать
- Известен ИНН клиента-физического лица

## Важно
- ИНН физического лица — 12 цифр; 10 цифр — это ИНН организации, такие клиенты ищутся в объекте Org
- Несколько строк в ответе означают дубли карточек, а не разных людей
- Отличие от API_Prs_FindListByFIO: поиск по ИНН однозначен, по ФИО — нет
""",
    "API_Prs_FindByID": """\
## Когда использовать
- Показать карточку клиента, выбранного из результатов поиска
- Нужны телефон или e-mail клиента

## Важно
- Принимает PersonID из API_Prs_FindListByFIO или API_Prs_FindListByINN
- Паспортные данные здесь не возвращаются — для них API_Prs_GetDocList
- Адреса — API_Addr_FindListByPersonID
""",
    "API_Prs_GetDocList": """\
## Когда использовать
- Нужны паспортные данные клиента: серия, номер, кем и когда выдан

## Важно
- Возвращает и недействительные документы: смотрите на дату выдачи
- DocType 21 — паспорт гражданина РФ
- Отличие от API_Prs_FindByID: FindByID — карточка и контакты, GetDocList — документы
""",
    "API_Addr_FindListByPersonID": """\
## Когда использовать
- «Какой адрес у клиента», «куда отправить письмо»

## Важно
- Без @AddrType возвращает все адреса: регистрации (REG), фактический (FACT), почтовый (POST)
- Для адреса одной строкой используйте колонку FullAddress

## Зависимости
- PersonID ← API_Prs_FindListByFIO.pAPI_Person_FindList.PersonID
""",
    "API_Acc_FindListByListOwnerID": """\
## Когда использовать
- Найти все счета клиента после поиска по ФИО или ИНН
- Получить AccountID для остатков, карт и сделок с ценными бумагами

## Важно
- Владельцы передаются входной таблицей pAPI_Account_OwnerID: в колонку OwnerID кладётся PersonID
- По умолчанию возвращает и закрытые счета; @OnlyOpenFlag = 1 — только открытые
- Остатков не возвращает — для них API_Acc_GetRest по каждому AccountID
""",
    "API_DSec_FindListIDByAccID": """\
## Когда использовать
- Найти сделки клиента с ценными бумагами (шаг после поиска счетов клиента)

## Важно
- Возвращает только ID сделок; данные сделок — API_DealSecurity_FindListByID
- Счета передаются входной таблицей pAPI_DSec_AccID
- Сделки заключаются по брокерским счетам (AccType = BRK); по другим счетам ответ, как правило, пустой
""",
    "API_DealSecurity_FindListByID": """\
## Когда использовать
- Показать данные сделок с ценными бумагами: бумага, количество, цена, сумма

## Важно
- Относится к объекту DSec, хотя имя начинается с API_DealSecurity
- ID сделок берутся из API_DSec_FindListIDByAccID и передаются входной таблицей pAPI_DealSecurity_ID
- Direction: BUY — покупка, SELL — продажа
""",
    "API_Dep_FindListByPersonID": """\
## Когда использовать
- «Какие вклады у клиента», «найди депозиты Иванова»

## Важно
- Принимает PersonID (сначала найдите клиента через API_Prs_FindListByFIO)
- @OnlyOpenFlag = 1 — только действующие вклады
- Сумма вклада здесь — текущая; остаток депозитного счёта — API_Acc_GetRest по AccountID вклада
""",
    "API_Dep_FindByID": """\
## Когда использовать
- Подробные условия одного вклада, в том числе капитализация процентов

## Важно
- Принимает DepositID из API_Dep_FindListByPersonID
- Отличие от API_Dep_FindListByPersonID: тот возвращает все вклады клиента,
  этот — один вклад и признак капитализации
""",
    "API_Card_FindListByAccID": """\
## Когда использовать
- «Какие карты у клиента»: сначала счета клиента, затем карты по каждому счёту

## Важно
- Возвращает только маскированный номер карты; полного номера в API нет
- Карты выпускаются к карточным счетам (AccType = CARD); по другим счетам ответ, как правило, пустой
""",
    "API_Sec_FindByISIN": """\
## Когда использовать
- Пользователь называет код ISIN бумаги
- Нужны номинал, эмитент или дата погашения выпуска

## Важно
- ISIN — 12 символов, латиница и цифры
- Сделки по бумаге этим методом не ищутся — только параметры выпуска
""",
}


def overlay_text(api_name: str) -> str:
    return f"# {api_name}\n\n{OVERLAYS[api_name]}"


def write_overlays(out: Path, api_names: set[str] | None = None) -> int:
    """Write ``API_*.md`` overlays (UTF-8) into ``out`` for the APIs present; returns how many."""
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for name in sorted(OVERLAYS):
        if api_names is not None and name not in api_names:
            continue
        (out / f"{name}.md").write_bytes(overlay_text(name).encode("utf-8"))
        written += 1
    return written
