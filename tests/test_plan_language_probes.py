"""Language-level readings of a request (no catalog): a verb that asks with its object, a number before
three capitals in a request written in capitals, fixed pairs joined by "and", verbs of saying and
reminding that order a change, a participle of a change verb that says what a thing is."""

from __future__ import annotations

from apiatlas.language.actions import orders_write_in, participle_verb
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v
from apiatlas.planning.actions import split_actions
from apiatlas.planning.coordination import coordinated_things
from apiatlas.planning.relevance import request_words, verbs_across
from apiatlas.text import stem


def _actions(text: str) -> list[tuple[str, bool]]:
    return [(a.text, a.writes) for a in split_actions(text, v.extract_values(text))]


def test_a_verb_of_giving_asks_when_its_object_is_a_list_and_grants_otherwise() -> None:
    assert _actions("Выдай список книг в библиотеке central") == [
        ("Выдай список книг в библиотеке central", False)
    ]
    assert _actions("Выдай мне все книги автора Толстого")[0][1] is False
    assert _actions("Выдай доступ пользователю ivan")[0][1] is True
    assert not orders_write_in(["выдай", "список", "книг"])
    assert orders_write_in(["выдай", "доступ", "к", "книгам"])


def test_three_capitals_after_a_number_are_no_unit_in_a_request_written_in_capitals() -> None:
    assert [(f.kind, f.value) for f in v.extract_values("SHOW 10 NEW ORDERS")] != [(v.AMOUNT, "10 NEW")]
    assert not [f for f in v.extract_values("SHOW 10 NEW ORDERS") if f.kind == v.AMOUNT]
    assert [(f.kind, f.value) for f in v.extract_values("convert 10 EUR to dollars")] == [
        (v.AMOUNT, "10 EUR")
    ]


def test_a_fixed_pair_is_one_thing_and_never_splits_an_action() -> None:
    assert coordinated_things("Show the terms and conditions for plan gold") == []
    assert coordinated_things("Show the pros and cons of plan gold") == []
    said = [a.text for a in coordinated_things("Get the terms and conditions and the pricing of plan gold")]
    assert said == ["Get the terms and conditions of plan gold", "Get the pricing of plan gold"]
    assert [a.text for a in coordinated_things("Show the details and offers for plan gold")] == [
        "Show the details for plan gold",
        "Show offers for plan gold",
    ]
    assert _actions("Grant read and write access to the repository docs") == [
        ("Grant read and write access to the repository docs", True)
    ]


def test_saying_and_reminding_order_a_change() -> None:
    assert _actions("Join the room lobby and say hi there") == [
        ("Join the room lobby", True),
        ("say hi there", True),
    ]
    assert _actions("Remind me tomorrow at 9am to review the budget")[0][1] is True
    assert _actions("Напомни мне завтра проверить бюджет")[0][1] is True


def test_a_passive_participle_of_a_change_verb_covers_that_verb_and_orders_nothing() -> None:
    assert participle_verb("закреплённые") == "закрепи"
    assert participle_verb("запущенные") == "запусти"
    assert participle_verb("архивированные") == "архивируй"
    assert participle_verb("открытые") == ""  # opened, not unpinned
    assert participle_verb("сообщения") == ""
    words = verbs_across(request_words("покажи закреплённые сообщения", [], CatalogVocabulary()))
    assert stem("pin") in next(w for w in words if w.word == "закреплённые").stems
    assert _actions("покажи закреплённые сообщения в комнате lobby")[0][1] is False


def test_a_currency_code_after_a_number_is_an_amount_in_a_request_written_in_capitals() -> None:
    said = v.extract_values("PAY 10 USD TO ACCOUNT ACC-1")
    assert [(f.kind, f.value) for f in said if f.kind == v.AMOUNT] == [(v.AMOUNT, "10 USD")]
    assert [f.value for f in v.extract_values("TRANSFER 250 EUR TO BOB") if f.kind == v.AMOUNT] == ["250 EUR"]
    assert not [f for f in v.extract_values("SHOW 10 TOP ORDERS") if f.kind == v.AMOUNT]


def test_giving_everything_of_a_kind_to_someone_still_grants() -> None:
    assert _actions("Выдай все права пользователю ivan")[0][1] is True
    assert _actions("Выдай мне все разрешения на проект x1")[0][1] is True
    assert _actions("Выдай мне все книги автора Толстого")[0][1] is False
    assert _actions("Выдай всех пользователей группы admins")[0][1] is False


def test_a_word_only_opening_like_a_change_verb_is_no_participle_of_it() -> None:
    for word in ("отменённые", "отмененные", "ответственный", "ответственного", "запутанные", "поменянные"):
        assert participle_verb(word) == "", word
    for word, verb in (("отмеченные", "отметь"), ("помеченный", "пометь"), ("отвеченные", "ответь"),
                       ("закреплённых", "закрепи"), ("запущенные", "запусти"), ("назначенные", "назначь"),
                       ("остановленные", "останови"), ("отправленные", "отправь"),
                       ("перемещённые", "перемести"),
                       ("перенесённые", "перенеси"), ("выданные", "выдай"), ("написанные", "напиши"),
                       ("приглашённые", "пригласи"), ("прикреплённые", "прикрепи")):  # fmt: skip
        assert participle_verb(word) == verb, word
