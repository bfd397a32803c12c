"""Russian words borrowed from English API terms as catalog stems (``language.transliteration``)."""

from __future__ import annotations

from apiatlas.language.stemming import stem
from apiatlas.language.transliteration import MAX_READINGS, borrowed_stem, latin_readings

CATALOG = dict.fromkeys(
    (
        stem(w)
        for w in [
            "pods",
            "logs",
            "deployments",
            "configmaps",
            "nodes",
            "services",
            "secrets",
            "clusters",
            "widgets",
            "menu",
            "text",
            "code",
            "jobs",
            "ingress",
            "endpoints",
            "token",
            "users",
            "files",
            "list",
            "data",
            "type",
            "servers",
            "test",
            "public",
            "buttons",
        ]
    ),
    1,
)


def test_declined_borrowings_read_as_the_catalog_stem() -> None:
    cases = {
        "пода": "pod", "логи": "log", "деплойменты": "deploy", "конфигмап": "configmap", "ноды": "node",
        "сервисы": "servic", "секреты": "secret", "кластера": "cluster", "виджет": "widget", "меню": "menu",
        "код": "code", "джобы": "job", "ингресс": "ingress", "эндпоинты": "endpoint", "юзера": "user",
        "файл": "file", "паблик": "public", "баттон": "button",
    }  # fmt: skip
    assert {w: borrowed_stem(w, CATALOG) for w in cases} == cases


def test_russian_words_of_their_own_read_as_nothing() -> None:
    own = [
        "канал",
        "сообщение",
        "окно",
        "кнопка",
        "узлов",
        "мама",
        "как",
        "так",
        "там",
        "все",
        "нет",
        "пространство",
        "клиент",
        "счёт",
    ]
    assert {w: borrowed_stem(w, CATALOG) for w in own} == dict.fromkeys(own)


def test_only_the_catalogs_stems_match() -> None:
    assert borrowed_stem("пода", {"log": 3}) is None
    assert borrowed_stem("логи", {}) is None


def test_of_several_readings_the_catalogs_more_frequent_stem_wins() -> None:
    assert borrowed_stem("файл", {"file": 12, "fail": 1}) == "file"  # «файл» reads as "fail" too
    assert borrowed_stem("файл", {"file": 1, "fail": 12}) == "fail"


def test_readings_are_latin_bounded_and_most_usual_first() -> None:
    assert latin_readings("под") == ("pod",)
    assert latin_readings("код")[0] == "kod" and "cod" in latin_readings("код")
    assert latin_readings("pod") == () and latin_readings("под1") == ()
    assert len(latin_readings("конфигурационный")) <= MAX_READINGS


def test_ei_before_a_consonant_reads_as_english_a_consonant_e() -> None:
    assert "namespace" in latin_readings("неймспейс")  # «нейм» name, «спейс» space
    assert borrowed_stem("неймспейсе", {"namespac": 4, "log": 9}) == "namespac"
    assert "server" in latin_readings("сервер")  # words without «ей» read as before
    assert "pager" in latin_readings("пейджер")  # «ей» before a pair («дж») reads as before
