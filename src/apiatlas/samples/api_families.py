"""The API families by name, and how one family expands for an object (per number, per parent)."""

from __future__ import annotations

from collections.abc import Callable

from apiatlas.samples import families_write as w
from apiatlas.samples.families import (
    EntityProfile,
    brows_by_branch,
    check_can_close,
    find_by_id,
    find_by_number,
    find_list_by_id,
    find_list_by_list_parent,
    find_list_by_parent,
    get_history,
    get_status,
)
from apiatlas.samples.spec import ApiSpec

FAMILIES: dict[str, Callable[[EntityProfile], ApiSpec]] = {
    "FindByID": find_by_id,
    "FindListByID": find_list_by_id,
    "GetHistory": get_history,
    "GetStatus": get_status,
    "CheckCanClose": check_can_close,
    "BrowsByBranch": brows_by_branch,
    "Add": w.add,
    "Upd": w.upd,
    "Del": w.delete,
    "Open": w.status_change("Open", "Открытие", "Запись переводится в статус «Открыт».", 14),
    "Close": w.status_change(
        "Close", "Закрытие", "Перед вызовом рекомендуется проверка возможности закрытия.", 15
    ),
    "Lock": w.status_change("Lock", "Блокировка", "Блокировка запрещает расходные операции.", 16),
    "Unlock": w.status_change("Unlock", "Снятие блокировки", "Снимает ранее установленную блокировку.", 17),
    "Confirm": w.status_change("Confirm", "Подтверждение", "Подтверждение выполняет контролёр.", 18),
    "Cancel": w.status_change("Cancel", "Отмена", "Отменяет неподтверждённую операцию.", 19),
    "Export": w.export,
    "Import": w.import_,
    "Print": w.print_form,
}
READ_FAMILIES: tuple[str, ...] = (
    "FindByID",
    "FindListByID",
    "GetHistory",
    "GetStatus",
    "CheckCanClose",
    "BrowsByBranch",
)
WRITE_FAMILIES: tuple[str, ...] = tuple(k for k in FAMILIES if k not in READ_FAMILIES)


def build_family(p: EntityProfile, family: str) -> list[ApiSpec]:
    """APIs of one family for ``p``: ``ByNumber``/``ByParent`` families expand per number/parent."""
    if family == "FindByNumber":
        return [find_by_number(p)] if p.number else []
    if family == "FindListByParent":
        return [find_list_by_parent(p, link) for link in p.parents]
    if family == "FindListByListParent":
        return [find_list_by_list_parent(p, link) for link in p.parents]
    return [FAMILIES[family](p)]
