"""`.rows` of a search answer in Python are rebuilt from the answer the kernel's bundle keeps
(the kernel no longer sends them twice): they must be the rows the kernel and JupyterLab build
from the same payload (contracts/answer-rows.ts, run here with Node), over documents that test
each rule (nested and object arrays, missing fields, a single object where an array is mapped,
fields named `__proto__` and `constructor`, keys JavaScript orders first, integers past 2^53)."""
import json
import subprocess
import uuid

from nbformat.v4 import new_code_cell

from conftest import REPO
from test_ipython_magics import (  # noqa: F401 (fixtures)
    PYTHON_KERNEL,
    REAL_819,
    connect_line,
    engine,
    engines,
    magic,
    node_request,
    printed,
    python_finds_searchbook,
    run_notebook,
)

MAPPING = {
    "properties": {
        "title": {"type": "keyword"},
        "n": {"type": "long"},
        "address": {"properties": {"city": {"type": "keyword"}, "zip": {"type": "keyword"}}},
        "variants": {"type": "nested", "properties": {"color": {"type": "keyword"}, "size": {"type": "integer"}}},
        "parts": {"properties": {"name": {"type": "keyword"}, "deep": {"properties": {"x": {"type": "long"}}}}},
        "free": {"type": "object", "enabled": False},
    }
}
# As text, so every digit reaches the engine; `free` is not mapped, so it is flattened by name.
DOCUMENTS = [
    '{"title": "a", "n": 9007199254740993, "address": {"city": "Oslo"},'
    ' "variants": [{"color": "red", "size": 1}, {"color": "blue"}],'
    ' "parts": [{"name": "x", "deep": {"x": 1}}, {"name": "y", "extra": 1}],'
    ' "__proto__": "p", "constructor": {"k": 1},'
    ' "free": {"b": 2, "1": "one", "0.x": "dotted", "0": {"x": "nested"}, "e": {}, "f": 1.0,'
    ' "deep": {"a": {"b": [{"c": 1}, {"c": 2, "d": [3]}]}}, "big": -9223372036854775809, "s": "quote \\" and \' and \\u00fc"}}',
    '{"title": "b", "variants": {"color": "green"}, "address": null, "free": null, "parts": {"name": "single"}}',
    "{}",
    '{"n": -9223372036854775808, "variants": [], "parts": [], "tags": ["t1", "t2"], "constructor": null}',
]

READ = """\
import json
print(json.dumps({'payload': found.bundle['application/vnd.searchbook.hits+json'],
                  'sent_rows': 'application/vnd.searchbook.rows+json' in found.bundle,
                  'rows': found.rows, 'columns': found.columns}))
"""

# The rows JupyterLab and the kernel build from a payload (the kernel's grid uses the same builder).
# Printed with the exact printer, so a long past 2^53 reaches Python with every digit as the builder kept it.
NODE_ROWS = (
    "const rows = require(process.argv[1]);"
    "const { exactJson } = require(process.argv[2]);"
    "let text = '';"
    "process.stdin.on('data', d => (text += d));"
    "process.stdin.on('end', () => process.stdout.write(exactJson(rows.hitsPayloadRows(JSON.parse(text)))));"
)


@engines("sandbox", REAL_819)
def test_rows_rebuilt_in_python_are_the_rows_the_kernel_builds(engine, tmp_path):
    index = f"rows-{uuid.uuid4().hex[:8]}"
    node_request(engine, f"/{index}", "PUT", {"mappings": MAPPING})
    lines = "".join(f'{{"index": {{"_id": "{i}"}}}}\n{doc}\n' for i, doc in enumerate(DOCUMENTS))
    written = node_request(engine, f"/{index}/_bulk?refresh=true", "POST", lines)
    assert written["errors"] is False, written
    try:
        nb, _ = run_notebook(
            [
                new_code_cell("%load_ext searchbook"),
                magic(connect_line(engine)),
                new_code_cell(f"%%searchbook -q --save found\nGET /{index}/_search"),
                new_code_cell(READ),
            ],
            PYTHON_KERNEL,
            tmp_path,
        )
    finally:
        node_request(engine, f"/{index}", "DELETE")
    seen = json.loads(printed(nb.cells[3]))
    rows = seen["rows"]
    # Rebuilt, not sent: the bundle holds the answer and its layout, no rows beside them.
    assert seen["sent_rows"] is False and "rows" not in seen["payload"] and seen["payload"]["documents"]
    built = subprocess.run(
        [
            "node",
            "-e",
            NODE_ROWS,
            str(REPO / "dist" / "contracts" / "answer-rows.js"),
            str(REPO / "dist" / "contracts" / "exact-json.js"),
        ],
        input=json.dumps(seen["payload"]),
        capture_output=True,
        text=True,
        check=True,
    )
    assert rows == json.loads(built.stdout)
    assert len(rows) == len(DOCUMENTS)
    first, second, empty, last = (next(r for r in rows if r["_id"] == str(i)) for i in range(len(DOCUMENTS)))
    # Python keeps every digit the engine wrote, where JavaScript's numbers round.
    assert first["n"] == 9007199254740993 and last["n"] == -9223372036854775808
    assert first["free.big"] == -9223372036854775809
    # JavaScript walks `0` before `0.x`: the dotted key, written last, wins the column.
    assert first["free.0.x"] == "dotted" and first["free.1"] == "one" and first["free.e"] == {}
    assert first["variants.color"] == ["red", "blue"] and first["variants.size"] == [1, None]
    assert first["parts.name"] == ["x", "y"] and first["__proto__"] == "p" and first["constructor.k"] == 1
    assert first["free.s"] == "quote \" and ' and ü"
    assert second["variants.color"] == ["green"] and second["address"] is None
    assert {k: v for k, v in empty.items() if not k.startswith("_")} == {}
    assert last["variants.color"] == [] and last["tags"] == ["t1", "t2"]


def node_rows(payload):
    built = subprocess.run(
        [
            "node",
            "-e",
            NODE_ROWS,
            str(REPO / "dist" / "contracts" / "answer-rows.js"),
            str(REPO / "dist" / "contracts" / "exact-json.js"),
        ],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(built.stdout)


def test_keys_javascript_walks_first_decide_a_shared_column_as_they_do_in_the_kernel(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "python"))
    # A real node answers each _source byte for byte: `0.x` may come before `0`, and both write
    # the column `free.0.x`; JavaScript walks the index key `0` first, so `0.x` wins there.
    from searchbook.answer import HITS_MIME, Answer

    text = (
        '{"hits": {"hits": [{"_id": "a", "_source": {"free": {"0.x": "dotted", "b": 1, "10": "ten", "2": {"x": "nested"},'
        ' "0": {"x": "nested"}, "01": "not an index", "\u0662": "not one either"}, "s": "it\'s",'
        ' "u": {"v": "walked"}, "u.v": "written last"}}, {"_id": "b", "_source": null}, {"_id": "c"}]}}'
    )
    payload = _hits_payload(
        [{"name": "_id", "type": "keyword", "origin": "meta"}, {"name": "s", "type": "text", "origin": "mapping"}],
        text=text,
        documents={"at": ["hits", "hits"], "source": ["_source"], "meta": {"_id": ["_id"]}},
    )
    rows = Answer({HITS_MIME: payload}).rows
    assert rows == node_rows(payload)
    assert rows[0]["free.0.x"] == "dotted" and rows[0]["free.2.x"] == "nested" and rows[0]["s"] == "it's"
    assert rows[0]["u.v"] == "written last"
    assert rows[1] == {"_id": "b"} and rows[2] == {"_id": "c"}


COLUMNS = [
    {"name": "_id", "type": "keyword", "origin": "meta"},
    {"name": "_score", "type": "float", "origin": "meta"},
    {"name": "title", "type": "keyword", "origin": "mapping"},
    {"name": "n", "type": "long", "origin": "mapping"},
    {"name": "address.city", "type": "keyword", "origin": "mapping"},
    {"name": "address.zip", "type": "keyword", "origin": "mapping"},
    {"name": "variants", "type": "nested", "origin": "mapping"},
    {"name": "variants.color", "type": "keyword", "origin": "mapping", "arrayParent": "variants"},
    {"name": "variants.size", "type": "integer", "origin": "mapping", "arrayParent": "variants"},
    {"name": "parts.name", "type": "keyword", "origin": "mapping"},
    {"name": "parts.deep.x", "type": "long", "origin": "mapping"},
    {"name": "free", "origin": "documents"},
    {"name": "free.b", "origin": "documents"},
    {"name": "free.0.x", "origin": "documents"},
    {"name": "u.v", "origin": "documents"},
    {"name": "tags", "origin": "documents"},
    {"name": "value", "origin": "documents"},
    {"name": "constructor.k", "origin": "documents"},
]
LAYOUT = {"at": ["hits", "hits"], "source": ["_source"], "meta": {"_id": ["_id"], "_score": ["_score"]}}
# Beside DOCUMENTS: a source holding a leading column's name, a dotted key beside the object it
# names, an object where the column of the same name holds a scalar elsewhere, sources that are
# no object or missing, an element that is no object.
MORE = [
    {"_id": "m1", "_source": {"_id": "from the source", "title": "t", "free": "scalar"}},
    {"_id": "m2", "_source": {"u": {"v": "walked"}, "u.v": "written last", "title": "dotted beside"}},
    {"_id": "m3", "_source": {"free": {"b": 1}, "address": {"city": "Rome"}, "_score": 7}},
    {"_id": "m4", "_source": "just text"},
    {"_id": "m5", "_source": None},
    {"_id": "m6"},
    "not an object",
    {"_id": "m7", "_source": {"variants": {"color": "one"}, "parts": [1, {"name": "p"}], "address": [{"city": "A"}, "x"]}},
    {"_id": "m8", "_source": {"2": "index first", "1": {"x": 1}, "title": "digits"}},
]


def _answer_of(documents):
    return {"hits": {"hits": [{"_id": str(i), "_score": 1.5, "_source": doc} for i, doc in enumerate(documents)] + MORE}}


def _random_documents(rand, count):
    keys = ["title", "n", "address", "variants", "parts", "free", "tags", "u", "u.v", "free.b", "value", "0", "b", "x"]

    def value(depth):
        roll = rand.random()
        if depth < 3 and roll < 0.25:
            return {rand.choice(keys): value(depth + 1) for _ in range(rand.randint(0, 3))}
        if depth < 3 and roll < 0.4:
            return [value(depth + 1) for _ in range(rand.randint(0, 3))]
        return rand.choice([None, 1, 2**70, 1.5, "s", True, {}, []])

    return [{rand.choice(keys): value(1) for _ in range(rand.randint(0, 6))} for _ in range(count)]


def test_columns_read_column_by_column_are_the_rows_columns(monkeypatch):
    """to_pandas() reads each column straight from the documents instead of building rows: every
    value must be the one the row of its document holds, whatever shape the documents take."""
    import random

    monkeypatch.syspath_prepend(str(REPO / "python"))
    from searchbook.answer_rows import document_columns, document_rows

    names = {c["name"] for c in COLUMNS}
    rand = random.Random(20261205)
    answers = [_answer_of([json.loads(text) for text in DOCUMENTS])]
    answers += [_answer_of(_random_documents(rand, 40)) for _ in range(200)]
    for answer in answers:
        rows = document_rows(answer, LAYOUT, COLUMNS)
        columns = document_columns(answer, LAYOUT, COLUMNS, names)
        assert columns == {name: [row.get(name) for row in rows] for name in names}


def test_dataframes_are_the_same_read_by_columns_or_from_rows(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "python"))
    import pandas as pd

    from searchbook.answer import HITS_MIME, Answer

    text = json.dumps(_answer_of([json.loads(text) for text in DOCUMENTS]))
    payload = _hits_payload(COLUMNS, text=text)
    by_rows = Answer({HITS_MIME: payload})
    assert len(by_rows.rows) == len(DOCUMENTS) + len(MORE)
    by_columns = Answer({HITS_MIME: payload})
    assert by_columns._column_values() is not None and by_rows._column_values() is None
    pd.testing.assert_frame_equal(by_columns.to_pandas(), by_rows.to_pandas(), check_exact=True)
    # polars compares Object columns by identity: their dtypes and values are compared instead.
    polars_columns, polars_rows = by_columns.to_polars(), by_rows.to_polars()
    assert polars_columns.schema == polars_rows.schema
    assert all(polars_columns[name].to_list() == polars_rows[name].to_list() for name in polars_rows.columns)


def test_a_dataframe_leaves_the_parsed_answer_to_be_freed_and_json_still_reads_it(monkeypatch):
    """A loop making DataFrames of searches keeps only the DataFrames: to_pandas() reads the
    answer for its columns and lets the parse go (the fields no column holds with it), unless
    `.json` was read; `.json` and `.rows` read it whenever asked."""
    import tracemalloc

    import pandas as pd

    monkeypatch.syspath_prepend(str(REPO / "python"))
    from searchbook.answer import HITS_MIME, Answer
    from searchbook.frames import to_pandas  # noqa: F401 (imported before memory is counted)

    # Each document holds a field no column shows, larger than the rest of it.
    documents = [{"title": f"t{i}", "n": i, "blob": {"words": [f"w{i}-{k}" for k in range(40)]}} for i in range(300)]
    text = json.dumps(_answer_of(documents))
    payload = _hits_payload([c for c in COLUMNS if c["name"] in ("_id", "title", "n")], text=text)

    def held_by(make):
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            kept = make()
            return kept, tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()

    _, parsed = held_by(lambda: json.loads(text))
    answer = Answer({HITS_MIME: payload})
    frame, held = held_by(answer.to_pandas)
    assert held < parsed / 4, (held, parsed)
    assert list(frame["title"][:2]) == ["t0", "t1"] and frame["n"].dtype == "Int64"
    # Read after the DataFrame, the answer is whole; read before it, the DataFrame is the same.
    assert answer.json == json.loads(text)
    assert answer.rows[0]["title"] == "t0"
    again = Answer({HITS_MIME: payload})
    assert again.json == json.loads(text)
    pd.testing.assert_frame_equal(again.to_pandas(), frame, check_exact=True)


def test_an_answer_parsed_while_the_kernel_read_it_is_parsed_once_and_only_for_its_own_bytes(monkeypatch):
    """A search answer's bytes come before its output (the kernel sends them as they arrive) and
    are parsed meanwhile: the answer whose output carries the same bytes uses that parse, once;
    an output carrying other bytes (the first documents of an answer past the row cap) is read
    from its own; bytes that are no JSON are left to the output."""
    monkeypatch.syspath_prepend(str(REPO / "python"))
    import pandas as pd

    import searchbook.answer as answer_module
    from searchbook.answer import HITS_MIME, Answer, EarlyAnswer

    text = json.dumps(_answer_of([json.loads(doc) for doc in DOCUMENTS])).encode()
    payload = _hits_payload(COLUMNS, answer_buffer=0)
    expected = Answer({HITS_MIME: payload}, buffers=[text]).to_pandas()
    parses = []
    real_loads = json.loads
    monkeypatch.setattr(answer_module.json, "loads", lambda raw: parses.append(len(raw)) or real_loads(raw))

    early = EarlyAnswer()
    early.read({"answerBuffer": 0}, [memoryview(bytes(text))])
    assert len(parses) == 1
    # Its own message's copy of the same bytes: the early parse is used, and nothing is parsed again.
    answer = Answer({HITS_MIME: payload}, buffers=[memoryview(bytes(text))], early=early)
    pd.testing.assert_frame_equal(answer.to_pandas(), expected, check_exact=True)
    assert len(parses) == 1
    # Read once: `.json` after the DataFrame parses the answer's own bytes.
    assert answer.json == real_loads(text) and len(parses) == 2

    # Other bytes in the output (the answer cut to its first documents): its own are read.
    cut = json.dumps({"hits": {"hits": _answer_of([json.loads(DOCUMENTS[0])])["hits"]["hits"][:1]}}).encode()
    early.read({"answerBuffer": 0}, [text])
    answer = Answer({HITS_MIME: {**payload, "omittedRows": 12}}, buffers=[cut], early=early)
    assert answer.json == real_loads(cut) and len(answer.rows) == 1
    # No JSON: nothing kept, the output read as it comes.
    early.read({"answerBuffer": 0}, [b"not json"])
    answer = Answer({HITS_MIME: payload}, buffers=[text], early=early)
    pd.testing.assert_frame_equal(answer.to_pandas(), expected, check_exact=True)


def _hits_payload(columns, text=None, documents=None, answer_buffer=None):
    """The hits output of a 200 search of /x/_search holding `text` (its quotes swapped, as the
    kernel sends it) or pointing at the message's buffer `answer_buffer`; every row kept."""
    payload = {
        "info": {"method": "GET", "path": "/x/_search", "status": 200, "elapsedMs": 1},
        "columns": columns,
        "answerFormat": "json, quotes swapped",
        "documents": documents if documents is not None else LAYOUT,
        "omittedRows": 0,
        "cut": [],
        "aggregations": [],
    }
    if answer_buffer is None:
        payload["answer"] = text.translate({ord('"'): "'", ord("'"): '"'})
    else:
        payload["answerBuffer"] = answer_buffer
    return payload


def _compressed(text):
    """`text` (JSON) as a payload keeps an answer over 64 KiB, made with the standard library alone:
    quotes swapped, gzip-compressed, base64-encoded."""
    import base64
    import gzip

    swapped = text.encode().translate(bytes.maketrans(b"\"'", b"'\""))
    return base64.b64encode(gzip.compress(swapped)).decode()


def test_an_answer_saved_compressed_reads_as_the_same_answer_saved_plain(monkeypatch):
    """Notebooks keep answers over 64 KiB gzip-compressed in base64 (`answerFormat` says so): the
    Python package reads the same rows, JSON (integers past 2^53 exact) and DataFrame from one as
    from the same answer kept plain, and a compressed text that is damaged says so."""
    monkeypatch.syspath_prepend(str(REPO / "python"))
    import pandas as pd

    from searchbook.answer import COMPRESSED_ANSWER_BYTES, HITS_MIME, Answer

    text = json.dumps(_answer_of([json.loads(doc) for doc in DOCUMENTS] * 100))
    assert len(text.encode()) > COMPRESSED_ANSWER_BYTES
    plain = Answer({HITS_MIME: _hits_payload(COLUMNS, text)})
    compressed_payload = {
        **_hits_payload(COLUMNS, text),
        "answer": _compressed(text),
        "answerFormat": "json, quotes swapped, gzip, base64",
    }
    compressed = Answer({HITS_MIME: compressed_payload})
    assert compressed.json == plain.json == json.loads(text)
    assert compressed.json["hits"]["hits"][0]["_source"]["n"] == 9007199254740993
    assert compressed.rows == plain.rows and len(compressed.rows) == 4 * 100 + len(MORE)
    pd.testing.assert_frame_equal(
        Answer({HITS_MIME: compressed_payload}).to_pandas(), plain.to_pandas(), check_exact=True
    )

    damaged = Answer({HITS_MIME: {**compressed_payload, "answer": compressed_payload["answer"][:-40]}})
    try:
        damaged.json
    except ValueError as error:
        assert "does not read as that" in str(error) and "Run the cell again" in str(error)
    else:
        raise AssertionError("a damaged compressed answer was read")


def test_an_answer_received_as_bytes_is_shown_compressed_past_64_kib_and_plain_below(monkeypatch):
    """The magics receive a search answer as its own bytes (`answerBuffer`) and put it back into the
    bundle they show as a notebook keeps it: compressed past 64 KiB, as the kernel keeps the
    answers it shows, plain below; either reads back as the answer sent."""
    import base64
    import gzip

    monkeypatch.syspath_prepend(str(REPO / "python"))
    from searchbook.answer import COMPRESSED_ANSWER_BYTES, HITS_MIME, Answer

    unswap = str.maketrans({'"': "'", "'": '"'})
    for copies, expected_format in [(100, "json, quotes swapped, gzip, base64"), (1, "json, quotes swapped")]:
        text = json.dumps(_answer_of([json.loads(doc) for doc in DOCUMENTS] * copies))
        assert (len(text.encode()) > COMPRESSED_ANSWER_BYTES) == (copies > 1)
        received = Answer({HITS_MIME: _hits_payload(COLUMNS, answer_buffer=0)}, buffers=[memoryview(text.encode())])
        shown = received.bundle[HITS_MIME]
        assert "answerBuffer" not in shown and shown["answerFormat"] == expected_format
        kept = shown["answer"]
        if copies > 1:
            kept = gzip.decompress(base64.b64decode(kept)).decode()
        assert kept.translate(unswap) == text
        assert Answer({HITS_MIME: shown}).rows == received.rows
