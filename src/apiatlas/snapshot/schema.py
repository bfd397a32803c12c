"""The SQLite layout of a snapshot: format version, page size and the DDL, in creation order."""

from __future__ import annotations

# 2: api_contracts (input and output JSON Schema of every API, built at compile time)
# 3: compact: API bodies and contracts deflated against a dictionary of their own column (``packing``),
#    edges as integers (API ids, names in ``edge_names``) clustered by consumer, source hashes as bytes,
#    a contentless full-text index whose rowid is the API's id
FORMAT_VERSION = 3
PAGE_SIZE = 4096

# bm25 column weights of api_fts, in column order
FTS_WEIGHTS = (4.0, 2.0, 1.0)

# the deflate dictionaries of the packed columns (``packing`` table), by name
APIS_DICT, CONTRACTS_DICT = "apis.body", "api_contracts"

DDL: tuple[str, ...] = (
    "CREATE TABLE manifest(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE objects(key TEXT PRIMARY KEY, name TEXT, title TEXT, api_count INTEGER NOT NULL, "
    "body TEXT NOT NULL)",
    # body: the Api JSON deflated against the ``apis.body`` dictionary; id: the edges' name of the API
    "CREATE TABLE apis(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, object_key TEXT, title TEXT, "
    "kept INTEGER NOT NULL, side_effect TEXT, entry_point INTEGER NOT NULL, body BLOB NOT NULL)",
    "CREATE INDEX apis_object ON apis(object_key, kept, key)",
    "CREATE INDEX apis_key_nocase ON apis(key COLLATE NOCASE)",
    "CREATE INDEX objects_key_nocase ON objects(key COLLATE NOCASE)",
    # sha256: the 32 bytes of the digest
    "CREATE TABLE source_files(path TEXT PRIMARY KEY, sha256 BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE types(name TEXT PRIMARY KEY, body TEXT NOT NULL)",
    # every table, field, domain-type and reason text of the edges, once, by id (sorted text order)
    "CREATE TABLE edge_names(id INTEGER PRIMARY KEY, text TEXT NOT NULL)",
    # producer, consumer: apis.id; the other columns edge_names ids (NULL: none); rows by consumer
    "CREATE TABLE edges(consumer INTEGER NOT NULL, rank INTEGER NOT NULL, id INTEGER NOT NULL, "
    "producer INTEGER NOT NULL, producer_table INTEGER, producer_field INTEGER NOT NULL, "
    "consumer_table INTEGER, consumer_field INTEGER NOT NULL, domain_type INTEGER, reason INTEGER, "
    "PRIMARY KEY(consumer, rank, id)) WITHOUT ROWID",
    "CREATE INDEX edges_producer ON edges(producer, rank)",
    "CREATE TABLE playbooks(name TEXT PRIMARY KEY, trigger TEXT, body TEXT NOT NULL)",
    "CREATE TABLE diagnostics(id INTEGER PRIMARY KEY, severity TEXT NOT NULL, code TEXT NOT NULL, "
    "message TEXT NOT NULL, file TEXT, line INTEGER, anchor TEXT)",
    "CREATE INDEX diagnostics_severity ON diagnostics(severity)",
    # full-text index of the kept APIs' stems, rowid = apis.id; contentless: the texts are not kept
    "CREATE VIRTUAL TABLE api_fts USING fts5(name_text, title, body_text, content = '',"
    " tokenize = 'unicode61 remove_diacritics 0')",
    # dense vectors of kept API cards (int8, see apiatlas.search.cards); empty without an embedding model
    "CREATE TABLE api_vectors(key TEXT PRIMARY KEY, object_key TEXT, vector BLOB NOT NULL) WITHOUT ROWID",
    # precomputed search arrays (the lexical BM25F postings of apiatlas.search.lexical), by name, deflated
    "CREATE TABLE search_index(name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID",
    # every API's contract as the compiler built it, both deflated against the ``api_contracts``
    # dictionary (the server reads them, never rebuilds them)
    "CREATE TABLE api_contracts(key TEXT PRIMARY KEY, input_schema BLOB NOT NULL, "
    "output_schema BLOB NOT NULL) WITHOUT ROWID",
    # the deflate dictionaries of the packed columns (apiatlas.snapshot.packing), by name
    "CREATE TABLE packing(name TEXT PRIMARY KEY, zdict BLOB NOT NULL) WITHOUT ROWID",
)
