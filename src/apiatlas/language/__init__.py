"""Language knowledge every part shares (function words, request verbs, stemming; Russian, English),
and a catalog's own words (kinds of things, synonyms) derived at build time and kept in the snapshot."""
