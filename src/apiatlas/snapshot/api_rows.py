"""The ``apis`` and ``api_contracts`` rows of a snapshot: each API's JSON body and contract, deflated.

Building them is most of the writer's own work (per API: the body's JSON, the input and output JSON
Schema, deflating the three). They read the finished catalog and nothing else, so for a large catalog
``rows_built_beside`` builds them in forked children (``apiatlas.forked_parts``: in parts as large as the
memory budget lets) while the writer inserts the other tables: each part's rows go to a spill file of its
own next to the snapshot, which the writer then reads back in order, in chunks (never all the rows in memory
at once). The rows are the same bytes either way, inserted in the same order; the file's bytes do not depend
on which table was filled first (``VACUUM`` rewrites every table in schema order).
"""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Iterator, Sequence
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

import pydantic_core
from pydantic import TypeAdapter

from apiatlas.catalog.model import Api
from apiatlas.forked_parts import ForkedParts, budgeted_parts
from apiatlas.snapshot.packing import Packer, dictionary, packed_ahead, sampled

ApiRow = tuple[int, str, str, str, int, str, int, bytes]  # a row of the ``apis`` table
ContractRow = tuple[str, bytes, bytes]  # a row of the ``api_contracts`` table
Dictionaries = tuple[bytes, bytes]  # the deflate dictionaries of the bodies and of the contracts

# from this many APIs the rows are built in a forked child while the writer inserts the other tables;
# below it, forking costs more than it saves
BESIDE_FROM = 2000
# APIs per child: a child copies the pages of the APIs it reads and those the writer writes while it lives
# (``apiatlas.forked_parts``), so a part's child holds about a part's copies; each fork copies the page
# tables of the whole process (~50 ms at 600 MiB)
PART_APIS: int | None = None  # tests; None: ``forked_parts.budgeted_parts`` decides
_SPILLED_CHUNK = 256  # (row, contract) pairs per pickle in the spill file


def ordered_json(value: Any) -> str:
    """Compact JSON in the value's own key order (a schema's properties in parameter order); as
    deterministic as ``to_json`` for a value built deterministically."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# where pydantic_core's JSON of plain values may differ from ``json.dumps``'s: a float under 1e-4 (Python
# writes 1e-05, pydantic_core 0.00001 or 1e-5) and a None key ("null" against "None"); a JSON number
# starts the text or follows '[', ':' or ','
_NOT_AS_JSON_DUMPS = re.compile(rb'(?:^|[\[:,])-?(?:[0-9.]+e-|0\.0000)|"None":')


def ordered_json_bytes(value: Any) -> bytes:
    """``ordered_json(value)`` as UTF-8, written by pydantic_core (~4x faster than ``json.dumps``): the same
    bytes for JSON's own values; a value whose JSON could differ (above) is written by ``json.dumps``."""
    data = pydantic_core.to_json(value)
    maybe = b"e-" in data or b"0.0000" in data or b'"None":' in data  # a quick look: the search is slower
    return ordered_json(value).encode() if maybe and _NOT_AS_JSON_DUMPS.search(data) else data


RowFiles = tuple[Dictionaries, list[Path]]  # the dictionaries, and the spill files in order


def rows_built_beside(apis: list[Api], spill: Path) -> ForkedParts[RowFiles, RowFiles]:
    """``spill_api_rows`` of ``apis``, for ``BESIDE_FROM`` APIs or more (where the platform forks) a part of
    them at a time each in a forked child of its own (``apiatlas.forked_parts``: as large as the memory
    budget lets, one part while the compiler is small; the writer takes the parts no child took yet when it
    asks for them), else here at once: part ``n``'s rows in the file ``spill`` + ``.n``. ``result()``
    gives the two dictionaries and the files, in order, once they are whole."""
    parts = budgeted_parts(len(apis), PART_APIS) if len(apis) >= BESIDE_FROM else None
    work = partial(_spill_part, apis, spill, parts or [range(len(apis))])
    return ForkedParts(len(parts or [0]), work, _files, background=parts is not None)


def _spill_part(apis: list[Api], spill: Path, parts: list[range], n: int) -> RowFiles:
    """Part ``n`` of ``spill_api_rows``: its rows spilled to a file of its own, with the dictionaries (each
    part samples them alike: the same rows give the same dictionaries)."""
    zdicts = row_dictionaries(apis)
    out = spill.with_name(f"{spill.name}.{n}")
    spill_rows(apis, parts[n], zdicts, out)
    return zdicts, [out]


def _files(done: Sequence[RowFiles]) -> RowFiles:
    return done[0][0], [f for _, files in done for f in files]


_API_JSON: TypeAdapter[Api] = TypeAdapter(Api)


def api_body(api: Api) -> bytes:
    """An API's JSON body as the ``apis`` table holds it (what every reader parses): compact, UTF-8, keys in
    the model's field order and dicts in the order the compiler built them (deterministic: the snapshot
    tests build under two hash seeds). pydantic writes it 3x faster than ``to_json`` of ``model_dump``."""
    return _API_JSON.dump_json(api)


def contract_row(api: Api) -> ContractRow:
    """An API's input and output JSON Schema (UTF-8 JSON), built by the compiler (what ``describe_api``
    built from the stored API before the contracts were stored: an API's body reads back as the same API)."""
    # compiler code, loaded only when a snapshot is written: opening one (the server) never loads the passes
    from apiatlas.passes.types import input_schema, output_schema

    return api.key, ordered_json_bytes(input_schema(api)), ordered_json_bytes(output_schema(api))


def spill_api_rows(apis: list[Api], spill: Path) -> Dictionaries:
    """Every API's row (kept or dropped, ``apis.id`` its place in ``apis``, which is in key order) and
    contract, written to the file ``spill`` as pickled chunks of (row, contract) pairs (``spilled_rows``
    reads them back); bodies and contracts deflated against a dictionary of their own column (sampled
    first), which is returned: ``(bodies' dictionary, contracts' dictionary)``. Each body is built, packed
    and written in turn rather than all held at once."""
    zdicts = row_dictionaries(apis)
    spill_rows(apis, range(len(apis)), zdicts, spill)
    return zdicts


def row_dictionaries(apis: list[Api]) -> Dictionaries:
    """The deflate dictionaries of the bodies and of the contracts, each of a sample of ``apis``."""
    sample = [apis[n] for n in sampled(len(apis))]
    bodies = dictionary([api_body(api) for api in sample])
    return bodies, dictionary([i + o for _, i, o in map(contract_row, sample)])


def spill_rows(apis: list[Api], places: range, zdicts: Dictionaries, spill: Path) -> None:
    """The rows and contracts of ``apis[n]`` for ``n`` in ``places``, deflated with ``zdicts``, written to
    ``spill``: the files of consecutive ranges, read one after the other, hold the same rows as the file of
    all of them at once (a row is deflated on its own)."""
    body_packer, contract_packer = Packer(zdicts[0]), Packer(zdicts[1])

    def built() -> Iterator[tuple[int, Api, bytes, ContractRow]]:
        for n in places:
            api = apis[n]
            yield n + 1, api, api_body(api), contract_row(api)

    def packed(item: tuple[int, Api, bytes, ContractRow]) -> tuple[ApiRow, ContractRow]:
        n, api, body, (key, inputs, outputs) = item
        kept, effect, entry = int(api.funnel.kept), api.side_effect.value, int(api.entry_point)
        row = (n, api.key, api.object_key, api.title, kept, effect, entry, body_packer.pack_bytes(body))
        return row, (key, contract_packer.pack_bytes(inputs), contract_packer.pack_bytes(outputs))

    rows = packed_ahead(built(), packed)  # deflated on other threads meanwhile
    with open(spill, "wb") as out:
        while chunk := list(islice(rows, _SPILLED_CHUNK)):
            pickle.dump(chunk, out, protocol=pickle.HIGHEST_PROTOCOL)


def spilled_rows(spill: Path) -> Iterator[tuple[ApiRow, ContractRow]]:
    """The (row, contract) pairs ``spill_api_rows`` wrote to ``spill``, in order."""
    with open(spill, "rb") as spilled:
        while True:
            try:
                chunk: list[tuple[ApiRow, ContractRow]] = pickle.load(spilled)
            except EOFError:
                return
            yield from chunk
