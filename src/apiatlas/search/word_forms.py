"""Other ways a catalog writes a query's words: two or three query words it has as one ("pay out": payout) and
other forms of a query stem that Snowball stems apart («сделок» for «сделк»)."""

from __future__ import annotations

from apiatlas.language.stemming import same_stem, stems_by_head
from apiatlas.search.lexical import LexicalIndex
from apiatlas.text import stem

# how many adjacent query words may make one catalog word: three read a path segment that joins a
# resource's words ("pricelistitems"; docs/search.md, Session 21: one HTTP set up on both halves, the
# other sets unchanged)
COMPOUND_WORDS = (2, 3)


class WordForms:
    """Compounds and stem forms over one lexical index (none without one)."""

    def __init__(self, index: LexicalIndex | None) -> None:
        self.index = index
        self._heads: dict[str, list[str]] | None = None  # the index's stems by their first four letters

    def compounds(self, said: list[str]) -> dict[str, tuple[str, list[str]]]:
        """Stems of two or three adjacent query words (``said``, as ``text.words`` gives them) that the
        catalog has as one word ("pay out": payout, "log in": login, "web hook": webhook, "price
        list items": a path's ``pricelistitems``), each with that word and the stems of the
        words it joins."""
        if self.index is None:
            return {}
        found: dict[str, tuple[str, list[str]]] = {}
        taken: set[int] = set()  # words of a longer compound: "price list" is not read in it
        for n in sorted(COMPOUND_WORDS, reverse=True):
            for i in range(len(said) - n + 1):
                joined = said[i : i + n]
                if not all(w.isalpha() for w in joined) or taken.issuperset(range(i, i + n)):
                    continue
                whole, parts = stem("".join(joined)), [stem(w) for w in joined]
                if whole in self.index.vocab and whole not in parts:
                    found[whole] = ("".join(joined), parts)
                    taken.update(range(i, i + n))
        return found

    def variants(self, terms: list[str]) -> dict[str, str]:
        """Catalog stems that are another form of a query stem (``same_stem``), each with the query stem
        it stands for."""
        if self.index is None:
            return {}
        if self._heads is None:
            self._heads = stems_by_head(self.index.vocab)
        out: dict[str, str] = {}
        for term in terms:
            for other in self._heads.get(term[:4], ()) if len(term) >= 4 else ():
                if other != term and other not in terms and same_stem(term, other):
                    out.setdefault(other, term)
        return out
