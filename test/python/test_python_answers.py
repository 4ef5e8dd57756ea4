"""Answers as an analyst reads them in a Python notebook (a real ipykernel with `%load_ext
searchbook`): every digit of the engine's numbers in `.json`, `.rows` and DataFrames, dates by
their mapping's format, typed aggregation tables, quiet magics, no silent row cap, the magics'
help, and the smaller promises (`%set` reaching Python, `os.environ` read when the cell runs,
errors without searchbook's frames, secrets kept out of `%vars` and out of IPython's history).
Against the sandbox and a real Elasticsearch 8.19 node (secured), started once per session."""
import ast
import json
import re
import urllib.error
import uuid

import pytest
from nbformat.v4 import new_code_cell

from test_ipython_magics import (  # noqa: F401 (fixtures)
    PYTHON_KERNEL,
    REAL_819,
    connect_line,
    displays,
    engine,
    engines,
    execute,
    magic,
    node_request,
    printed,
    python_finds_searchbook,
    python_kernel,
    run_notebook,
)

# 2^53 + 1, the int64 limits, past them, and the unsigned_long limit.
BIG = [9007199254740993, 9223372036854775807, -9223372036854775808]
UNSIGNED = [18446744073709551615, 0, 9223372036854775808]
MAPPING = {
    "properties": {
        "n": {"type": "integer"},
        "big": {"type": "long"},
        "ubig": {"type": "unsigned_long"},
        "secs": {"type": "date", "format": "epoch_second"},
        "millis": {"type": "date", "format": "epoch_millis"},
        "custom": {"type": "date", "format": "yyyy/MM/dd HH:mm:ss"},
        "nanos": {"type": "date_nanos"},
        "iso": {"type": "date"},
    }
}
# 2024-01-02T03:04:05Z in each field's format; `iso` with a fraction and a +0100 offset.
INSTANT_NS = 1704164645 * 10**9
DATES = {
    "secs": ("1704164645", INSTANT_NS),
    "millis": ("1704164645123", INSTANT_NS + 123_000_000),
    "custom": ('"2024/01/02 03:04:05"', INSTANT_NS),
    "nanos": ('"2024-01-02T03:04:05.123456789Z"', INSTANT_NS + 123_456_789),
    "iso": ('"2024-01-02T04:04:05.5+0100"', INSTANT_NS + 500_000_000),
}


@pytest.fixture
def digits(engine):
    """An index whose documents hold integers no float keeps and dates in five formats, written
    as text so every digit arrives; `unsigned_long` only where the node has it (not in the
    default distribution's OSS-licensed builds the test nodes are)."""
    index = f"digits-{uuid.uuid4().hex[:8]}"
    unsigned = True
    try:
        node_request(engine, f"/{index}", "PUT", {"mappings": MAPPING})
    except urllib.error.HTTPError as err:
        refusal = err.read().decode()
        if "unsigned_long" not in refusal:
            raise AssertionError(f"the node refused the index: {refusal}") from None
        unsigned = False
        mapping = {"properties": {k: v for k, v in MAPPING["properties"].items() if k != "ubig"}}
        node_request(engine, f"/{index}", "PUT", {"mappings": mapping})
    dates = ", ".join(f'"{field}": {text}' for field, (text, _) in DATES.items())
    lines = "".join(
        f'{{"index": {{"_id": "{n}"}}}}\n{{"n": {n}, "big": {big}, ' + (f'"ubig": {ubig}, ' if unsigned else "") + f"{dates}}}\n"
        for n, (big, ubig) in enumerate(zip(BIG, UNSIGNED))
    )
    answer = node_request(engine, f"/{index}/_bulk?refresh=true", "POST", lines)
    assert answer["errors"] is False, answer
    yield {"index": index, "fields": ("big", "ubig") if unsigned else ("big",)}
    node_request(engine, f"/{index}", "DELETE")


READ_DIGITS = """\
import json
FIELDS = %(fields)r
rows = found.rows
frame = found.to_pandas()
print(json.dumps({
    'json': {f: [h['_source'][f] for h in found.json['hits']['hits']] for f in FIELDS},
    'rows': {f: [r[f] for r in rows] for f in FIELDS},
    'pandas': {f: [None if v is None else int(v) for v in frame[f]] for f in FIELDS},
    'pandas_dtypes': {c: str(t) for c, t in frame.dtypes.items()},
    'pandas_dates': {f: [int(t.value) for t in frame[f]] for f in %(dates)r},
}))
try:
    import polars
except ImportError:
    pass
else:
    pf = found.to_polars()
    print(json.dumps({
        'polars': {f: pf[f].to_list() for f in FIELDS},
        'polars_dtypes': {c: str(t) for c, t in pf.schema.items()},
        'polars_dates': {f: pf[f].dt.epoch('ns').to_list() for f in %(dates)r},
    }))
"""


def expected(digits):
    return {field: {"big": BIG, "ubig": UNSIGNED}[field] for field in digits["fields"]}


def read_digits(engine, digits, tmp_path):
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            new_code_cell(f"%%searchbook -q --save found\nGET /{digits['index']}/_search?sort=n:asc"),
            new_code_cell(READ_DIGITS % {"dates": tuple(DATES), "fields": digits["fields"]}),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    seen = {}
    for line in printed(nb.cells[3]).splitlines():
        seen.update(json.loads(line))
    return seen


@engines("sandbox", REAL_819)
def test_json_keeps_every_digit_and_dataframes_never_raise_and_read_dates_by_their_format(engine, digits, tmp_path):
    seen = read_digits(engine, digits, tmp_path)
    # Python's own parse of the engine's text: the digits as stored.
    assert seen["json"] == expected(digits)
    for field, (_, instant) in DATES.items():
        assert seen["pandas_dtypes"][field] == "datetime64[ns, UTC]", field
        assert seen["pandas_dates"][field] == [instant] * 3, field
        if "polars_dates" in seen:
            # polars keeps microseconds for `date`, nanoseconds for `date_nanos`.
            kept = instant if field == "nanos" else instant // 1000 * 1000
            assert seen["polars_dates"][field] == [kept] * 3, field
    if "polars_dtypes" in seen:
        assert seen["polars_dtypes"]["nanos"] == "Datetime(time_unit='ns', time_zone='UTC')"


@engines("sandbox", REAL_819)
def test_rows_and_dataframes_keep_every_digit_in_the_widest_exact_type(engine, digits, tmp_path):
    # `.rows` come from the kernel's rows: exact once the kernel writes every number it read as the engine wrote it.
    seen = read_digits(engine, digits, tmp_path)
    assert seen["rows"] == expected(digits)
    assert seen["pandas"] == expected(digits)
    assert seen["pandas_dtypes"]["big"] == "Int64" and seen["pandas_dtypes"].get("ubig", "UInt64") == "UInt64"
    if "polars" in seen:
        assert seen["polars"] == expected(digits)
        assert seen["polars_dtypes"]["big"] == "Int64" and seen["polars_dtypes"].get("ubig", "UInt64") == "UInt64"


AGGREGATIONS = """GET /products/_search
{"size": 0, "aggs": {
  "months": {"date_histogram": {"field": "created_at", "calendar_interval": "month", "format": "yyyy-MM"},
             "aggs": {"avg_price": {"avg": {"field": "price"}}}},
  "days": {"date_histogram": {"field": "created_at", "calendar_interval": "day"}},
  "prices": {"histogram": {"field": "price", "interval": 50}},
  "stock": {"terms": {"field": "stock", "size": 3}}}}"""


@engines("sandbox", REAL_819)
def test_aggregation_tables_are_typed_like_hits_tables_and_keep_the_engines_notes(engine, tmp_path):
    pytest.importorskip("pandas")
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            new_code_cell(f"%%searchbook -q --save found\n{AGGREGATIONS}"),
            new_code_cell(
                "import json\n"
                "tables = {name: t.to_pandas() for name, t in found.aggregations.items()}\n"
                "print(json.dumps({name: {'dtypes': {c: str(d) for c, d in f.dtypes.items()}, 'notes': f.attrs.get('notes', []),\n"
                "    'keys': [k.value if hasattr(k, 'value') else k for k in f['key'].tolist()]} for name, f in tables.items()}))\n"
                "print(json.dumps({name: [b['key'] for b in found.json['aggregations'][name]['buckets']] for name in tables}))\n"
                "print(json.dumps([isinstance(b['key'], float) for b in found.json['aggregations']['prices']['buckets']]))"
            ),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    tables, keys, float_keys = [json.loads(line) for line in printed(nb.cells[3]).splitlines()]
    # Month keys written `yyyy-MM` by the aggregation's format: the instants its numeric keys name.
    assert tables["months"]["dtypes"] == {"key": "datetime64[ns, UTC]", "doc_count": "Int64", "avg_price": "float64"}
    assert tables["months"]["keys"] == [k * 1_000_000 for k in keys["months"]]
    assert tables["days"]["dtypes"]["key"] == "datetime64[ns, UTC]"
    # Past the row cap (1,000 rows) a table keeps its first rows.
    assert tables["days"]["keys"] == [k * 1_000_000 for k in keys["days"]][: len(tables["days"]["keys"])]
    assert len(tables["days"]["keys"]) == min(len(keys["days"]), 1000)
    # A histogram's keys are numbers: floats when the engine wrote them so (a real node writes 0.0).
    assert tables["prices"]["dtypes"]["key"] == ("float64" if any(float_keys) else "Int64")
    if engine["engine"] == REAL_819:
        assert all(float_keys) and tables["prices"]["dtypes"]["key"] == "float64"
    assert tables["stock"]["dtypes"] == {"key": "Int64", "doc_count": "Int64"}
    assert any("sum_other_doc_count" in note for note in tables["stock"]["notes"])


def test_reading_an_answer_leaves_pythons_garbage_collector_as_the_user_set_it(engine, tmp_path):
    # Answers are built with the cycle collector paused; whatever the user chose must hold after.
    read = "a = %searchbook -q GET /products/_search?size=100\nlen(a.to_pandas()), len(a.to_polars()), len(a.rows), len(a.json['hits']['hits'])"
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            new_code_cell(f"%%searchbook --quiet\n{connect_line(engine)}"),
            new_code_cell(f"import gc\ngc.disable()\n{read}\nprint(gc.isenabled())"),
            new_code_cell(f"gc.enable()\n{read}\nprint(gc.isenabled())"),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    assert [printed(nb.cells[i]).strip() for i in (2, 3)] == ["False", "True"]


LOOP = "for i in range(50):\n    a = %searchbook -q GET /products/_search?size=1000&q=price:>=${i}"


def test_quiet_magics_show_nothing_and_give_the_value_a_shown_call_gives(engine, tmp_path):
    nb, saved = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            new_code_cell(f"%%searchbook --quiet\n{connect_line(engine)}"),
            new_code_cell(LOOP),
            new_code_cell("b = %searchbook GET /products/_search?size=1000&q=price:>=49;"),
            new_code_cell("%config SearchbookMagic.quiet = True\nc = %searchbook GET /products/_search?size=1000&q=price:>=49"),
            new_code_cell("print(len(a.rows), a.rows == b.rows == c.rows, a.json['hits'] == b.json['hits'] == c.json['hits'])"),
            # Quiet as the last expression: IPython shows the value's one line.
            new_code_cell("%searchbook -q GET /products/_search?size=1000&q=price:>=49"),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    assert [nb.cells[i].outputs for i in (1, 2, 3, 4)] == [[], [], [], []]
    assert printed(nb.cells[5]).split() == ["1000", "True", "True"]
    [summary] = nb.cells[6].outputs
    assert summary.output_type == "execute_result" and re.fullmatch(
        r"<searchbook answer GET /products/_search\?size=1000&q=price:\S+ → 200: 1000 rows × \d+ columns>", summary.data["text/plain"]
    )
    # 50 searches of 1,000 hits leave a small notebook.
    assert len(saved.encode()) < 100_000

    shown, shown_text = run_notebook(
        [new_code_cell("%load_ext searchbook"), magic(connect_line(engine)), new_code_cell("d = %searchbook GET /products/_search?size=1000&q=price:>=49\nprint(len(d.rows))")],
        PYTHON_KERNEL,
        tmp_path,
    )
    assert len(displays(shown.cells[2])) == 1 and printed(shown.cells[2]).strip() == "1000"
    assert len(shown_text.encode()) > 100_000


SHAPES = [
    {"ref": "1", "n": 1, "extra": {"deep": "x", "big": "__LONG__"}, "tags": ["a", "b"]},
    {"ref": "2", "name": 'b "q" \\ \u00e9', "n": 2, "mixed": [{"k": 1}, None], "flag": True, "none": None},
    {"ref": "3", "name": "c", "n": 3, "other": {}},
]
COMPARE = """\
import json
def same(x, y):
    def no_took(v):
        return {k: w for k, w in v.json.items() if k != 'took'}
    return [no_took(x) == no_took(y), x.columns == y.columns, x.types == y.types, x.rows == y.rows,
            x.to_pandas().equals(y.to_pandas()), x.complete == y.complete, x.omitted_rows == y.omitted_rows]
text = json.dumps(a.json) + repr(a.rows)
big = [h['_source']['extra']['big'] for h in a.json['hits']['hits'] if 'extra' in h['_source']]
print(json.dumps({'same': same(a, b), 'same_cut': same(c, d), 'complete': [a.complete, c.complete, d.complete],
    'masked': SECRET not in text and '${env:DOC_SECRET}' in text, 'big': big,
    'big_row': [r.get('extra.big') for r in a.rows if r.get('extra.big') is not None]}))
"""


@engines("sandbox", REAL_819)
def test_a_quiet_value_equals_a_shown_ones_secrets_masked_every_digit_kept_rows_left_out_said(engine, tmp_path):
    # Documents of several shapes (fields the mapping lacks, objects, arrays, nulls, a number no
    # double holds, a secret), read quiet and shown, whole and past the row cap.
    pytest.importorskip("pandas")
    index = f"shapes-{uuid.uuid4().hex[:8]}"
    node_request(engine, f"/{index}", "PUT", {"mappings": {"dynamic": False, "properties": {"n": {"type": "long"}, "name": {"type": "text"}}}})
    lines = "".join(f'{{"index": {{"_id": "{d["ref"]}"}}}}\n' + json.dumps(d).replace('"__LONG__"', "12345678901234567890") + "\n" for d in SHAPES)
    assert node_request(engine, f"/{index}/_bulk?refresh=true", "POST", lines)["errors"] is False
    secret = 'pw-"quoted"-7f3a-secret'
    search = f"GET /{index}/_search?size=10"
    try:
        nb, _ = run_notebook(
            [
                new_code_cell(f"%load_ext searchbook\nimport os\nSECRET = {secret!r}\nos.environ['DOC_SECRET'] = SECRET"),
                new_code_cell(f"%%searchbook --quiet\n{connect_line(engine)}"),
                new_code_cell(f"%%searchbook -q\nPUT /{index}/_doc/4?refresh=true\n{{\"name\": ${{env:DOC_SECRET}}, \"n\": 4}}"),
                new_code_cell(f"a = %searchbook -q {search}"),
                new_code_cell(f"b = %searchbook {search}"),
                new_code_cell(f"%config SearchbookMagic.max_rows = 3\nc = %searchbook -q {search}"),
                new_code_cell(f"d = %searchbook {search}\n%config SearchbookMagic.max_rows = None"),
                new_code_cell(COMPARE),
            ],
            PYTHON_KERNEL,
            tmp_path,
        )
    finally:
        node_request(engine, f"/{index}", "DELETE")
    seen = json.loads(printed(nb.cells[7]))
    assert seen["same"] == [True] * 7 and seen["same_cut"] == [True] * 7, seen
    assert seen["complete"] == [True, False, False]
    assert seen["masked"] is True
    assert seen["big"] == [12345678901234567890] and seen["big_row"] == [12345678901234567890]
    # The rows left out are said: by a warning for the quiet call, in its output for the shown one.
    warned = "".join(o.text for o in nb.cells[5].outputs if o.output_type == "stream" and o.name == "stderr")
    assert "RowsLeftOut" in warned and "kept 3 of the 4 rows" in warned, warned
    [shown] = displays(nb.cells[6])
    assert "1 rows left out of the notebook" in shown.data["text/plain"]
    assert [len(displays(nb.cells[i])) for i in (3, 4)] == [0, 1]


def test_rows_past_the_cap_are_said_and_read_on_request(engine, tmp_path):
    pytest.importorskip("pandas")
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            new_code_cell("a = %searchbook -q GET /products/_search?size=1500&sort=created_at:asc"),
            new_code_cell(
                "print(a.complete, len(a.rows), len(a.json['hits']['hits']), len(a.to_pandas()))\n"
                "every = a.to_pandas(all=True)\n"
                "print(len(every), every['_id'].is_unique, list(every['_id'][:1000]) == [r['_id'] for r in a.rows])\n"
                "print(len(a.to_polars(all=True)) if __import__('importlib').util.find_spec('polars') else 1500)"
            ),
            new_code_cell("%config SearchbookMagic.max_rows = 2000\nb = %searchbook -q GET /products/_search?size=1500&sort=created_at:asc\nprint(b.complete, len(b.rows))"),
            new_code_cell("%config SearchbookMagic.max_rows = None\nc = %searchbook -q GET /products/_search?size=1500&sort=created_at:asc\nprint(c.complete, len(c.rows))"),
            # The warning's own advice, run as written, raises the cap.
            new_code_cell(
                "import re, warnings\n"
                "search = '-q GET /products/_search?size=1500&sort=created_at:asc'\n"
                "with warnings.catch_warnings(record=True) as caught:\n"
                "    warnings.simplefilter('always')\n"
                "    cut = get_ipython().run_line_magic('searchbook', search)\n"
                "advice = re.search(r'`(%config [^`]+)`', str(caught[0].message)).group(1)\n"
                "get_ipython().run_cell(advice)\n"
                "whole = get_ipython().run_line_magic('searchbook', search)\n"
                "print(cut.complete, whole.complete, len(whole.rows))\n"
                "%config SearchbookMagic.max_rows = None"
            ),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    warned = [o.text for o in nb.cells[2].outputs if o.output_type == "stream" and o.name == "stderr"]
    assert warned and "RowsLeftOut" in warned[0] and "kept 1,000 of the 1,500 rows" in warned[0] and "all=True" in warned[0]
    assert printed(nb.cells[3]).split() == ["False", "1000", "1000", "1000", "1500", "True", "True", "1500"]
    assert printed(nb.cells[4]).split() == ["True", "1500"]
    assert printed(nb.cells[5]).split() == ["False", "1000"]
    assert printed(nb.cells[6]).split() == ["False", "True", "1500"]


def test_the_magics_document_themselves(python_kernel):
    _, client, _ = python_kernel
    execute(client, "%load_ext searchbook")
    reply, _ = execute(client, "%searchbook?")
    [page] = [p for p in reply.get("payload", []) if p.get("source") == "page"]
    text = page["data"]["text/plain"]
    assert "--quiet" in text and "SearchbookMagic.max_rows" in text and "to_pandas" in text
    reply, outputs = execute(client, "%searchbook --help")
    assert reply["status"] == "ok"
    shown = "".join(o["content"].get("text", "") for o in outputs if o["msg_type"] == "stream")
    assert "--save NAME, -o NAME" in shown and "--quiet, -q" in shown and "Unknown option" not in shown


def test_set_values_reach_python_and_the_environment_is_read_when_the_cell_runs(engine, tmp_path):
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            magic("GET /products/_search?size=3&sort=created_at:asc"),
            magic("%set ids = hits.hits[*]._id\n%set size = 2"),
            new_code_cell("print(ids, size)"),
            # Set after the searchbook kernel started: read by the next cell.
            new_code_cell("import os\nos.environ['LATER_INDEX'] = 'products'\nn = %searchbook -q GET /${env:LATER_INDEX}/_count\nprint(n.json['count'] > 0)"),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    ids, size = printed(nb.cells[4]).rsplit(" ", 1)
    assert len(ast.literal_eval(ids)) == 3 and size.strip() == "2"
    assert printed(nb.cells[5]).strip() == "True"


def test_errors_show_no_searchbook_frames_and_secrets_stay_out_of_vars_and_history(engine, python_kernel):
    _, client, _ = python_kernel
    execute(client, "%load_ext searchbook")
    reply, outputs = execute(client, "x = object()\n%searchbook GET /products/_search?q=${x}")
    assert reply["status"] == "error" and reply["ename"] == "SearchbookError"
    [error] = [o["content"] for o in outputs if o["msg_type"] == "error"]
    assert "NotJson" in "".join(error["traceback"]) and not [line for line in error["traceback"] if "python_values.py" in line or "ipython_magics.py" in line]

    # A password from a Python variable is refused before anything is sent; %vars never holds it.
    secret = f"py-secret-{uuid.uuid4().hex[:8]}"
    reply, outputs = execute(client, f"pw = {secret!r}\n%searchbook %connect elasticsearch {engine['es']} auth=basic user=elastic password=${{pw}}")
    assert reply["status"] == "error"
    said = json.dumps([o["content"] for o in outputs])
    assert "SecretFromPython" in said and "still in this cell" not in said and "${env:" in said
    reply, outputs = execute(client, "%searchbook %vars")
    assert secret not in json.dumps([o["content"] for o in outputs])

    # A password typed into a cell: refused, and IPython's copy of the cell is named and removable.
    typed = f"typed-secret-{uuid.uuid4().hex[:8]}"
    reply, outputs = execute(client, f"%searchbook %connect elasticsearch {engine['es']} auth=basic user=elastic password={typed}")
    assert reply["status"] == "error"
    said = json.dumps([o["content"] for o in outputs])
    forget = re.search(r"searchbook\.forget_cell\((\d+)\)", said)
    assert forget and "history" in said
    assert typed in json.dumps(client.history(raw=True, hist_access_type="tail", n=50, reply=True)["content"])
    reply, _ = execute(client, f"import searchbook\nsearchbook.forget_cell({forget.group(1)})")
    assert reply["status"] == "ok"
    execute(client, "get_ipython().history_manager.writeout_cache()")
    assert typed not in json.dumps(client.history(raw=True, hist_access_type="tail", n=50, reply=True)["content"])
    # Written backwards, so this cell's own text (which IPython stores too) does not hold it.
    reply, outputs = execute(
        client,
        f"import sqlite3\nsecret = {typed[::-1]!r}[::-1]\n"
        "print(any(secret in row[0] for row in sqlite3.connect(get_ipython().history_manager.hist_file).execute('select source_raw from history')))",
    )
    assert "".join(o["content"].get("text", "") for o in outputs if o["msg_type"] == "stream").strip() == "False"



def panel_exchange(client, comm_id, data):
    """One message of the side panel's comm opened on the Python kernel, and the reply to it."""
    client.shell_channel.send(client.session.msg("comm_msg", {"comm_id": comm_id, "data": data}))
    for _ in range(600):
        try:
            msg = client.get_iopub_msg(timeout=0.2)
        except Exception:  # noqa: BLE001 (queue.Empty: nothing yet)
            continue
        if msg["msg_type"] == "comm_msg" and msg["content"]["data"].get("requestId") == data["requestId"]:
            return msg["content"]["data"]
    raise AssertionError(f"no reply to {data}")


@engines("sandbox", REAL_819)
def test_the_side_panel_and_copy_as_curl_reach_the_magics_kernel_through_the_python_kernel(engine, python_kernel):
    _, client, _ = python_kernel
    execute(client, "%load_ext searchbook")
    reply, _ = execute(client, f"%searchbook -q {connect_line(engine)}")
    assert reply["status"] == "ok"
    comm_id = uuid.uuid4().hex
    # As JupyterLab's panel opens it on the notebook's kernel (here the Python one).
    client.shell_channel.send(client.session.msg("comm_open", {"comm_id": comm_id, "target_name": "searchbook.panel", "data": {}}))
    listed = panel_exchange(client, comm_id, {"v": 4, "requestId": "r1", "type": "connections"})
    assert listed["type"] == "connections"
    assert [c["active"] for c in listed["connections"]] == [True] and engine["es"].split("//")[1].rstrip("/") in listed["connections"][0]["address"]
    cell = "%%searchbook -q\nGET /products/_search\n{\"size\": 1}"
    curl = panel_exchange(client, comm_id, {"v": 4, "requestId": "r2", "type": "curl", "cell": cell})
    assert curl["type"] == "curl" and any("/products/_search" in line and line.startswith("curl ") for line in curl["commands"])
    assert engine["es_password"] not in json.dumps(curl)
    python = panel_exchange(client, comm_id, {"v": 4, "requestId": "r3", "type": "python", "cell": "a = %searchbook -q GET /products/_count"})
    assert python["type"] == "python" and "_count" in python["code"]


def test_a_list_column_of_ints_then_floats_keeps_its_floats_in_polars(engine, tmp_path):
    pytest.importorskip("polars")
    index = f"lists-{uuid.uuid4().hex[:8]}"
    # The first document maps `prices` as long; the engine keeps the second's 274.16 in its source.
    node_request(engine, f"/{index}/_doc/1?refresh=true", "PUT", {"n": 1, "prices": [274]})
    node_request(engine, f"/{index}/_doc/2?refresh=true", "PUT", {"n": 2, "prices": [274.16, 3]})
    try:
        nb, _ = run_notebook(
            [
                new_code_cell("%load_ext searchbook"),
                magic(connect_line(engine)),
                new_code_cell(f"found = %searchbook -q GET /{index}/_search?sort=n:asc\nprint(found.to_polars()['prices'].to_list())"),
            ],
            PYTHON_KERNEL,
            tmp_path,
        )
    finally:
        node_request(engine, f"/{index}", "DELETE")
    assert printed(nb.cells[2]).strip() == "[[274.0], [274.16, 3.0]]"
