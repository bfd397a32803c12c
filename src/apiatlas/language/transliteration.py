"""Russian words read as the English words they are borrowed from: «логи» (logs), «юзеров» (users),
«сервер» (server), «кластера» (cluster), «эндпоинты» (endpoints), «токен» (token).

Engineers who ask in Russian about an English API write its terms in Cyrillic, declined as Russian
words («логов», «юзеров»). A letter-by-letter reading with the usual alternatives of each letter
(«к» as k or c, «й» as y or i, «дж» as j or g…) gives the Latin spellings such a word may stand for;
one of them whose English stem is one of the catalog's is that word. Language knowledge, as a
stemmer's: no catalog's words are written here, the catalog's own stems decide what matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import product

from apiatlas.language.stemming import stem

# each Cyrillic letter (and the pairs read as one sound) -> its Latin readings, the most usual first
_LETTERS: dict[str, tuple[str, ...]] = {
    "а": ("a", "u"), "б": ("b",), "в": ("v", "w"), "г": ("g",), "д": ("d",), "е": ("e",), "ё": ("e", "yo"),
    "ж": ("zh", "j", "g"), "з": ("z", "s"), "и": ("i", "y"), "й": ("y", "i"), "к": ("k", "c"), "л": ("l",),
    "м": ("m",), "н": ("n",), "о": ("o",), "п": ("p",), "р": ("r",), "с": ("s", "c"), "т": ("t",),
    "у": ("u", "oo"), "ф": ("f", "ph"), "х": ("h", "kh"), "ц": ("ts", "c"), "ч": ("ch",), "ш": ("sh",),
    "щ": ("sch",), "ъ": ("",), "ы": ("y", "i"), "ь": ("",), "э": ("e", "a"), "ю": ("yu", "u"),
    "я": ("ya", "a"),
}  # fmt: skip
_PAIRS: dict[str, tuple[str, ...]] = {
    "дж": ("j", "g", "dg"), "кс": ("x", "ks"), "ей": ("ey", "ay", "a"), "ай": ("ai", "y", "i"),
    "ой": ("oy", "oi"), "эй": ("ey", "a"), "ью": ("ew", "iu"), "сс": ("ss", "s"), "лл": ("ll", "l"),
}  # fmt: skip
_VOWELS = frozenset("аеёиоуыэюяйьъ")
MAX_READINGS = 512  # a long word's readings are cut at this many (the most usual letters first)


def _pieces(word: str) -> list[tuple[str, ...]] | None:
    """The word's letters (and pairs) as their readings; None when a letter is not Cyrillic."""
    out: list[tuple[str, ...]] = []
    i = 0
    while i < len(word):
        pair = word[i : i + 2]
        after = _LETTERS.get(word[i + 2 : i + 3], ()) if pair == "ей" else ()
        if after and word[i + 2] not in _VOWELS and word[i + 2 : i + 4] not in _PAIRS:
            # «нейм», «спейс»: English a-consonant-e ("name", "space"); not before a pair («пейджер»)
            out.append(
                tuple(
                    dict.fromkeys(
                        [*(f"a{c}e" for c in after), *(f"{r}{c}" for r in _PAIRS[pair] for c in after)]
                    )
                )
            )
            i += 3
            continue
        if pair in _PAIRS:
            out.append(_PAIRS[pair])
            i += 2
            continue
        readings = _LETTERS.get(word[i])
        if readings is None:
            return None
        out.append(readings)
        i += 1
    return out


@lru_cache(maxsize=4096)
def latin_readings(word: str) -> tuple[str, ...]:
    """The Latin spellings a lower-case Cyrillic word may stand for, the most usual first (at most
    ``MAX_READINGS``); empty for a word with letters of another script."""
    pieces = _pieces(word)
    if not pieces:
        return ()
    out: list[str] = []
    for letters in product(*pieces):
        out.append("".join(letters))
        if len(out) >= MAX_READINGS:
            break
    return tuple(dict.fromkeys(out))


def borrowed_stem(word: str, stems: Mapping[str, int]) -> str | None:
    """The catalog stem a Cyrillic request word is borrowed from, or None: of the English stems of the
    word's readings and of its Russian stem's (case endings off: «логов» → «лог»), also with a final
    silent ``e`` («нода» → node, «код» → code), those in ``stems`` (stem → how many of the catalog's
    documents have it), the most frequent («файл»: "file", not "fail")."""
    found: dict[str, int] = {}
    for form in dict.fromkeys([word, stem(word)]):
        for reading in latin_readings(form):
            for guess in (stem(reading), stem(reading + "e")):
                if len(guess) >= 3 and guess in stems:
                    found[guess] = stems[guess]
    return min(found, key=lambda s: (-found[s], s)) if found else None
