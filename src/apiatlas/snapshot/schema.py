"""The SQLite layout of a snapshot: format version, page size and the DDL, in creation order."""

from __future__ import annotations

FORMAT_VERSION = 2  # 2: api_contracts (input and output JSON Schema of every API, built at compile time)
PAGE_SIZE = 4096

# bm25 column weights of api_fts, in column order (UNINDEXED columns get 0).
FTS_WEIGHTS = (0.0, 0.0, 4.0, 2.0, 1.0)

DDL: tuple[str, ...] = (
    "CREATE TABLE manifest(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE objects(key TEXT PRIMARY KEY, name TEXT, title TEXT, api_count INTEGER NOT NULL, "
    "body TEXT NOT NULL)",
    "CREATE TABLE apis(key TEXT PRIMARY KEY, object_key TEXT, title TEXT, kept INTEGER NOT NULL, "
    "side_effect TEXT, entry_point INTEGER NOT NULL, body TEXT NOT NULL)",
    "CREATE INDEX apis_object ON apis(object_key, kept, key)",
    "CREATE INDEX apis_key_nocase ON apis(key COLLATE NOCASE)",
    "CREATE INDEX objects_key_nocase ON objects(key COLLATE NOCASE)",
    "CREATE TABLE source_files(path TEXT PRIMARY KEY, sha256 TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE types(name TEXT PRIMARY KEY, body TEXT NOT NULL)",
    "CREATE TABLE edges(id INTEGER PRIMARY KEY, producer TEXT NOT NULL, producer_table TEXT, "
    "producer_field TEXT NOT NULL, consumer TEXT NOT NULL, consumer_table TEXT, "
    "consumer_field TEXT NOT NULL, "
    "domain_type TEXT, level TEXT NOT NULL, rank INTEGER NOT NULL, reason TEXT)",
    "CREATE INDEX edges_producer ON edges(producer, rank)",
    "CREATE INDEX edges_consumer ON edges(consumer, rank)",
    "CREATE TABLE playbooks(name TEXT PRIMARY KEY, trigger TEXT, body TEXT NOT NULL)",
    "CREATE TABLE diagnostics(id INTEGER PRIMARY KEY, severity TEXT NOT NULL, code TEXT NOT NULL, "
    "message TEXT NOT NULL, file TEXT, line INTEGER, anchor TEXT)",
    "CREATE INDEX diagnostics_severity ON diagnostics(severity)",
    "CREATE VIRTUAL TABLE api_fts USING fts5(key UNINDEXED, object_key UNINDEXED, name_text, title,"
    " body_text, tokenize = 'unicode61 remove_diacritics 0')",
    # dense vectors of kept API cards (int8, see apiatlas.search.cards); empty without an embedding model
    "CREATE TABLE api_vectors(key TEXT PRIMARY KEY, object_key TEXT, vector BLOB NOT NULL) WITHOUT ROWID",
    # precomputed search arrays (the lexical BM25F postings of apiatlas.search.lexical), by name
    "CREATE TABLE search_index(name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID",
    # every API's contract as the compiler built it (the server reads it, never rebuilds it)
    "CREATE TABLE api_contracts(key TEXT PRIMARY KEY, input_schema TEXT NOT NULL, "
    "output_schema TEXT NOT NULL)"
    " WITHOUT ROWID",
)
