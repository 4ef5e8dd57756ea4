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
    payload = {
        "info": {"method": "GET", "path": "/x/_search", "status": 200, "elapsedMs": 1},
        "columns": [{"name": "_id", "type": "keyword", "origin": "meta"}, {"name": "s", "type": "text", "origin": "mapping"}],
        "answer": text.translate({ord('"'): "'", ord("'"): '"'}),
        "answerFormat": "json, quotes swapped",
        "documents": {"at": ["hits", "hits"], "source": ["_source"], "meta": {"_id": ["_id"]}},
        "omittedRows": 0,
        "cut": [],
        "aggregations": [],
    }
    rows = Answer({HITS_MIME: payload}).rows
    assert rows == node_rows(payload)
    assert rows[0]["free.0.x"] == "dotted" and rows[0]["free.2.x"] == "nested" and rows[0]["s"] == "it's"
    assert rows[0]["u.v"] == "written last"
    assert rows[1] == {"_id": "b"} and rows[2] == {"_id": "c"}
