"""searchbook's IPython extension in a real Python kernel (ipykernel): `%%searchbook` cells show
what the searchbook kernel shows for the same cell, answers come back as Python values and
DataFrames, Python values reach the request as JSON, and prompts, interrupts, errors and
progress pass through; no secret reaches the notebook. Against the sandbox and real
Elasticsearch nodes (8.19 secured, 9.5 secured where a JDK 21 is found), started once per
session by conftest's real_elasticsearch."""
import base64
import json
import os
import re
import select
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from queue import Empty

import nbformat
import pytest
from jupyter_client.manager import start_new_kernel
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

from conftest import REPO, with_rows

HITS = "application/vnd.searchbook.hits+json"
TABLE = "application/vnd.searchbook.table+json"
ROWS = "application/vnd.searchbook.rows+json"
PYTHON_KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}
SEARCHBOOK_KERNEL = {"name": "searchbook", "display_name": "searchbook", "language": "searchbook"}


@pytest.fixture(autouse=True)
def python_finds_searchbook(sandbox, monkeypatch):
    """The Python kernel imports this checkout's package and starts the searchbook kernelspec the
    suite installed; the notebooks read the sandbox's secrets from the environment."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO / "python"), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("ES_PASSWORD", sandbox["es_password"])
    monkeypatch.setenv("TYPESENSE_API_KEY", sandbox["ts_api_key"])


# The secured real nodes: 8.19 everywhere the suite runs, 9.5 for the bundles and DataFrames.
REAL_819 = "real-8.19-security"
REAL_95 = "real-9.5-security"
REAL_95_PRODUCTS = 200


@pytest.fixture
def engine(request, sandbox, real_elasticsearch, monkeypatch):
    """The Elasticsearch a test runs against (its address and the elastic user's password), the
    password also in ES_PASSWORD, where `password=${env:ES_PASSWORD}` reads it."""
    name = getattr(request, "param", "sandbox")
    if name == "sandbox":
        found = sandbox
    else:
        version = name.removeprefix("real-")
        # The examples share the 8.19 node with the whole sample index; 9.5 is this suite's alone, and smaller.
        found = {**sandbox, **real_elasticsearch(version, **({"products": REAL_95_PRODUCTS} if name == REAL_95 else {}))}
    monkeypatch.setenv("ES_PASSWORD", found["es_password"])
    return {**found, "engine": name}


def engines(*names):
    return pytest.mark.parametrize("engine", names, indirect=True)


def connect_line(engine):
    return f"%connect elasticsearch {engine['es']} auth=basic user=elastic password=${{env:ES_PASSWORD}}"


def run_notebook(cells, kernelspec, tmp_path):
    nb = new_notebook(cells=cells, metadata={"kernelspec": kernelspec})
    NotebookClient(nb, kernel_name=kernelspec["name"], timeout=120).execute()
    path = tmp_path / f"{kernelspec['name']}.ipynb"
    nbformat.write(nb, path)
    return nb, path.read_text()


def magic(text):
    return new_code_cell(f"%%searchbook\n{text}")


def displays(cell):
    return [o for o in cell.outputs if o.output_type == "display_data"]


def printed(cell):
    return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


def comparable(data):
    """A bundle without what differs between two runs of one request: the time it took (the
    kernel's elapsedMs, the engine's `took`)."""
    text = json.dumps(data, sort_keys=True)
    text = re.sub(r'"elapsedMs": [0-9.e+-]+', '"elapsedMs": 0', text)
    text = re.sub(r"(took\\?['\"]: ?)\d+", r"\g<1>0", text)
    text = re.sub(r" in \d+ ms", " in N ms", text)
    return json.loads(text)


SEARCH = """GET /products/_search
{"size": 5, "sort": [{"created_at": "asc"}], "aggs": {"categories": {"terms": {"field": "category"}}}}"""


@engines("sandbox", REAL_819, REAL_95)
def test_a_magic_cell_shows_the_outputs_the_searchbook_kernel_shows(engine, tmp_path):
    cells = [connect_line(engine), SEARCH, "GET /_cat/indices/products?format=json&h=index,health", "GET /products/_count"]
    own, _ = run_notebook([new_code_cell(c) for c in cells], SEARCHBOOK_KERNEL, tmp_path)
    in_python, saved = run_notebook(
        [new_code_cell("%load_ext searchbook"), *[magic(c) for c in cells]], PYTHON_KERNEL, tmp_path
    )
    for theirs, ours in zip(own.cells, in_python.cells[1:]):
        assert [comparable(o.data) for o in displays(ours)] == [comparable(o.data) for o in displays(theirs)]
        assert [o.metadata for o in displays(ours)] == [o.metadata for o in displays(theirs)]
    search = displays(in_python.cells[2])[0].data
    assert len(with_rows(search[HITS])["rows"]) == 5 and "<table" in search["text/html"]
    # The rows the kernel adds for Python values never reach the notebook.
    assert ROWS not in saved
    assert engine["es_password"] not in saved


@engines("sandbox", REAL_819, REAL_95)
def test_the_answer_is_a_value_whose_dataframe_holds_the_grids_rows_and_columns(engine, tmp_path):
    pytest.importorskip("pandas")
    nb, saved = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            new_code_cell(f"%%searchbook --save found\n{SEARCH}"),
            new_code_cell(
                "import json\n"
                "df = found.to_pandas()\n"
                "buckets = found.aggregations['categories'].to_pandas()\n"
                "print(json.dumps({'columns': list(df.columns), 'dtypes': {c: str(t) for c, t in df.dtypes.items()},\n"
                "    'rows': json.loads(df.to_json(orient='records', date_format='iso', date_unit='ms')),\n"
                "    'buckets': buckets.to_dict('records'), 'bucket_columns': list(buckets.columns),\n"
                "    'took': found.json['took'] >= 0, 'hits': [h['_id'] for h in found.json['hits']['hits']]}))"
            ),
            new_code_cell(
                "try:\n"
                "    frame = found.to_polars()\n"
                "except ImportError:\n"
                "    pass\n"
                "else:\n"
                "    print(json.dumps({'columns': frame.columns, 'dtypes': {c: str(t) for c, t in frame.schema.items()},\n"
                "        'rows': frame.to_dicts()}, default=lambda d: d.isoformat(timespec='milliseconds').replace('+00:00', 'Z')))"
            ),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    grid = with_rows(displays(nb.cells[2])[0].data[HITS])
    if printed(nb.cells[4]):
        in_polars = json.loads(printed(nb.cells[4]))
        assert in_polars["columns"] == [c["name"] for c in grid["columns"]]
        assert in_polars["rows"] == [{c: row.get(c) for c in in_polars["columns"]} for row in grid["rows"]]
        assert in_polars["dtypes"]["created_at"] == "Datetime(time_unit='us', time_zone='UTC')"
        assert in_polars["dtypes"]["stock"] == "Int64" and in_polars["dtypes"]["tags"] == "List(String)"
    seen = json.loads(printed(nb.cells[3]))
    assert seen["columns"] == [c["name"] for c in grid["columns"]]
    assert seen["hits"] == [row["_id"] for row in grid["rows"]]
    for frame_row, grid_row in zip(seen["rows"], grid["rows"], strict=True):
        for column in seen["columns"]:
            assert frame_row[column] == grid_row.get(column), column
    assert seen["dtypes"]["created_at"] == "datetime64[ns, UTC]"
    assert seen["dtypes"]["price"] == "float64" and seen["dtypes"]["stock"] == "Int64"
    assert seen["dtypes"]["in_stock"] == "boolean"
    assert any(isinstance(row["tags"], list) for row in seen["rows"])
    assert any(isinstance(row["variants.color"], list) for row in seen["rows"])
    table = grid["aggregations"][0]
    assert seen["bucket_columns"] == table["columns"] and seen["buckets"] == table["rows"]
    assert engine["es_password"] not in saved


def test_python_values_reach_the_request_as_json(engine, tmp_path):
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            new_code_cell(
                "found = {}\n"
                "for category in ['office', 'tools']:\n"
                "    answer = %searchbook GET /products/_search?q=category:${category}&size=3\n"
                "    found[category] = sorted({row['category'] for row in answer.rows})\n"
                "print(found)"
            ),
            # A string holding quotes and `${...}` is one JSON string, not cell text.
            new_code_cell("categories = ['home', 'apparel']\nodd = 'say \"${categories}\"'"),
            magic(
                'GET /products/_search\n{"size": 20, "query": {"bool": {"filter": [{"terms": {"category": ${categories}}}],'
                ' "must_not": [{"match_phrase": {"name": ${odd}}}]}}}'
            ),
            new_code_cell("print(sorted({row['category'] for row in _.rows}))"),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    assert printed(nb.cells[2]).strip() == "{'office': ['office'], 'tools': ['tools']}"
    assert printed(nb.cells[5]).strip() == "['apparel', 'home']"


def test_a_python_value_the_kernel_refuses_stops_the_request_it_was_sent_with(engine, tmp_path):
    """The `%set` lines of a cell's Python values go out in one round trip with the cell: when the
    kernel refuses one, the cell's request must not be sent (with no value, or a stale one)."""
    index = f"values-{uuid.uuid4().hex[:8]}"
    put = f'PUT /{index}/_doc/1?refresh=true\n{{"n": ${{n}}}}'
    run = f"get_ipython().run_cell_magic('searchbook', '-q', {put!r})"
    try:
        nb, _ = run_notebook(
            [
                new_code_cell("%load_ext searchbook"),
                magic(connect_line(engine)),
                new_code_cell(
                    # The kernel holds an older value of n: a request sent without its own would use it.
                    "n = 4\n"
                    "a = %searchbook -q GET /products/_count?q=price:>=${n}\n"
                    "import searchbook.ipython_magics as magics\n"
                    "sent_as, n = magics.set_line, 5\n"
                    # A `%set` line the kernel refuses, in place of the value's.
                    "magics.set_line = lambda name, value: '%set 1n = 1'\n"
                    f"try:\n    {run}\nexcept Exception as err:\n    print('refused', type(err).__name__)\n"
                    "magics.set_line = sent_as"
                ),
            ],
            PYTHON_KERNEL,
            tmp_path,
        )
        assert printed(nb.cells[2]).strip() == "refused SearchbookError"
        with pytest.raises(urllib.error.HTTPError) as missing:
            node_request(engine, f"/{index}/_doc/1")
        assert missing.value.code == 404
        # The same cell with the value's own line writes the document.
        nb, _ = run_notebook(
            [new_code_cell("%load_ext searchbook"), magic(connect_line(engine)), new_code_cell(f"n = 5\n{run}")],
            PYTHON_KERNEL,
            tmp_path,
        )
        assert node_request(engine, f"/{index}/_doc/1")["_source"] == {"n": 5}
    finally:
        try:
            node_request(engine, f"/{index}", "DELETE")
        except urllib.error.HTTPError:
            pass


@engines("sandbox", REAL_819)
def test_a_failed_request_raises_with_the_engines_reason_and_no_secret(engine, tmp_path):
    failing = magic("GET /no-such-index/_search")
    failing.metadata["tags"] = ["raises-exception"]
    nb, saved = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            failing,
            new_code_cell(
                "from searchbook import SearchbookError\n"
                "try:\n"
                "    %searchbook GET /no-such-index/_doc/1\n"
                "except SearchbookError as err:\n"
                "    print(err.ename, '|', err.evalue)"
            ),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    error = [o for o in nb.cells[2].outputs if o.output_type == "error"][0]
    assert "no such index [no-such-index]" in error.evalue and "404" in error.evalue
    # The engine's whole answer is shown above the error, as in a searchbook notebook.
    assert displays(nb.cells[2])[0].data["application/json"]["status"] == 404
    ename, evalue = printed(nb.cells[3]).split(" | ")
    assert ename == "RequestFailed" and "no such index" in evalue
    assert engine["es_password"] not in saved


def execute(client, code, allow_stdin=False, on_stdin=None):
    """Runs code in the Python kernel; returns its reply and its outputs (answering input requests with on_stdin)."""
    msg_id = client.execute(code, allow_stdin=allow_stdin)
    outputs, idle = [], False
    # Bounded: at most two minutes of waiting in short steps, so an input request is seen while no output comes.
    for _ in range(1200):
        if idle:
            break
        if allow_stdin and client.stdin_channel.msg_ready():
            request = client.stdin_channel.get_msg(timeout=1)
            client.input(on_stdin(request["content"]))
            continue
        try:
            msg = client.iopub_channel.get_msg(timeout=0.1)
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status":
            idle = msg["content"]["execution_state"] == "idle"
        elif msg["msg_type"] != "execute_input":
            outputs.append(msg)
    return reply_to(client, msg_id)["content"], outputs


def execute_after_an_error(client, code):
    """execute() for the cell after one that failed: ipykernel aborts the requests that reach it
    before it has finished aborting the failed cell's queue (stop_on_error), so one that came
    too soon is sent once more."""
    reply, outputs = execute(client, code)
    if reply["status"] == "aborted":
        reply, outputs = execute(client, code)
    return reply, outputs


def reply_to(client, msg_id):
    for _ in range(100):
        reply = client.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply
    raise AssertionError(f"no reply to {msg_id}")


@pytest.fixture
def python_kernel(tmp_path):
    """A Python kernel whose log (its stderr, which the searchbook kernel it starts shares) is a file."""
    log = tmp_path / "python-kernel.log"
    with log.open("w") as stderr:
        manager, client = start_new_kernel(kernel_name="python3", stderr=stderr)
    yield manager, client, log
    client.stop_channels()
    if manager.has_kernel:
        manager.shutdown_kernel(now=True)


@engines("sandbox", REAL_819)
def test_a_password_prompt_is_the_notebooks_and_the_password_is_shown_nowhere(engine, python_kernel):
    manager, client, log = python_kernel
    execute(client, "%load_ext searchbook")
    asked = []

    def type_password(content):
        asked.append(content)
        return engine["es_password"]

    reply, outputs = execute(
        client,
        f"%%searchbook\n%connect elasticsearch {engine['es']} auth=basic user=elastic",
        allow_stdin=True,
        on_stdin=type_password,
    )
    assert reply["status"] == "ok"
    # One prompt, through getpass: the notebook's masked input, naming whose password it wants.
    assert len(asked) == 1 and asked[0]["password"] is True
    assert asked[0]["prompt"].startswith("The password of elastic for ")
    shown = json.dumps([o["content"] for o in outputs])
    assert "Connected to Elasticsearch" in shown and engine["es_password"] not in shown
    reply, outputs = execute(client, "%searchbook GET /products/_count")
    assert reply["status"] == "ok"
    assert [o["content"]["data"]["application/json"]["count"] > 0 for o in outputs if o["msg_type"] == "display_data"] == [True]
    # The password typed reached the engine (the count answered) and nothing the Python kernel keeps.
    history = json.dumps(client.history(raw=True, output=True, hist_access_type="tail", n=20, reply=True)["content"])
    assert engine["es_password"] not in history
    client.stop_channels()
    manager.shutdown_kernel(now=False)
    assert engine["es_password"] not in log.read_text()


class HoldingEngine(BaseHTTPRequestHandler):
    """Answers GET / as Elasticsearch 8 does and holds /slow requests open, recording a hang-up."""

    arrived = threading.Event()
    hung_up = threading.Event()

    def do_GET(self):
        if self.path.startswith("/slow"):
            type(self).arrived.set()
            # Bounded: a minute at most, in steps; the client closing its socket ends it.
            for _ in range(600):
                readable, _, _ = select.select([self.connection], [], [], 0.1)
                if readable and self.connection.recv(1, socket.MSG_PEEK) == b"":
                    type(self).hung_up.set()
                    return
            self.reply({"hits": {"hits": []}})
            return
        self.reply({"name": "holding", "cluster_name": "test", "version": {"number": "8.15.0"}, "tagline": "You Know, for Search"})

    def reply(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("x-elastic-product", "Elasticsearch")
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


# A quiet call waits on its reply rather than its outputs: an interrupt stops it the same way.
@pytest.mark.parametrize("options", ["", "-q "])
def test_an_interrupt_stops_the_request_in_flight_and_the_next_cell_runs(python_kernel, options):
    manager, client, _ = python_kernel
    HoldingEngine.arrived.clear()
    HoldingEngine.hung_up.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), HoldingEngine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        execute(client, "%load_ext searchbook")
        reply, _ = execute(client, f"%searchbook %connect elasticsearch http://127.0.0.1:{server.server_port}")
        assert reply["status"] == "ok"
        msg_id = client.execute(f"%searchbook {options}GET /slow/_search")
        assert HoldingEngine.arrived.wait(60)
        manager.interrupt_kernel()
        reply = reply_to(client, msg_id)
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
        # What the searchbook kernel said of its own cell: it was interrupted, not left running.
        assert "the request in flight was aborted" in reply["content"]["evalue"]
        assert HoldingEngine.hung_up.wait(60)
        # The same searchbook kernel, with its connection, runs the next cell.
        reply, outputs = execute_after_an_error(client, f"a = %searchbook {options}GET /\nprint(a.json['name'])")
        assert reply["status"] == "ok"
        assert "".join(o["content"]["text"] for o in outputs if o["msg_type"] == "stream") == "holding\n"
        shown = [o["content"]["data"]["application/json"]["name"] for o in outputs if o["msg_type"] == "display_data"]
        assert shown == ([] if options else ["holding"])
    finally:
        server.shutdown()
        server.server_close()


def node_request(engine, path, method="GET", body=None):
    """A set-up request to the engine as elastic (not through searchbook)."""
    token = base64.b64encode(f"elastic:{engine['es_password']}".encode()).decode()
    headers = {"authorization": f"Basic {token}", "content-type": "application/json"}
    data = None if body is None else body.encode() if isinstance(body, str) else json.dumps(body).encode()
    request = urllib.request.Request(f"{engine['es']}{path}", data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def node_get(engine, path):
    return node_request(engine, path)


def health_waits(engine, besides=()):
    """The node's cluster-health tasks but those listed in `besides`: the waiting request's, while it runs."""
    listed = node_get(engine, "/_tasks?actions=cluster:monitor/health&detailed=true")
    return [task for node in listed["nodes"].values() for key, task in node["tasks"].items() if key not in besides]


@engines(REAL_819)
def test_an_interrupt_aborts_the_request_a_real_node_is_holding(engine, python_kernel):
    manager, client, _ = python_kernel
    execute(client, "%load_ext searchbook")
    reply, _ = execute(client, f"%searchbook {connect_line(engine)}")
    assert reply["status"] == "ok"
    # A wait of another test on this shared node, still running or cancelled.
    before = {key for node in node_get(engine, "/_tasks?actions=cluster:monitor/health")["nodes"].values() for key in node["tasks"]}
    # The node holds this request until a second node joins (none will) or 50 s pass.
    msg_id = client.execute("%searchbook GET /_cluster/health?wait_for_nodes=2&timeout=50s")
    waiting = []
    # Bounded: up to a minute, in short steps, until the node works on the request.
    for _ in range(600):
        waiting = health_waits(engine, before)
        if waiting:
            break
        time.sleep(0.1)
    assert len(waiting) == 1 and waiting[0]["cancelled"] is False
    manager.interrupt_kernel()
    reply = reply_to(client, msg_id)
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
    assert "the request in flight was aborted" in reply["content"]["evalue"]
    # Elasticsearch cancels an HTTP request's task when its client hangs up.
    for _ in range(600):
        waiting = health_waits(engine, before)
        if not waiting or waiting[0]["cancelled"]:
            break
        time.sleep(0.1)
    assert not waiting or waiting[0]["cancelled"] is True
    reply, outputs = execute_after_an_error(client, "%searchbook GET /products/_count")
    assert reply["status"] == "ok"
    assert [o["content"]["data"]["application/json"]["count"] > 0 for o in outputs if o["msg_type"] == "display_data"] == [True]


class DelayingProxy(BaseHTTPRequestHandler):
    """Forwards each request to `target`, holding every search 0.3 s: an export of a few pages
    then lasts long enough for the kernel to report its progress between them."""

    target = ""

    def forward(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else None
        if self.path.split("?")[0].endswith("/_search"):
            time.sleep(0.3)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length", "connection")}
        request = urllib.request.Request(f"{self.target}{self.path}", data=body, headers=headers, method=self.command)
        try:
            answer = urllib.request.urlopen(request, timeout=60)
        except urllib.error.HTTPError as err:
            answer = err
        with answer:
            data = answer.read()
            self.send_response(answer.status)
            for key, value in answer.headers.items():
                if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(key, value)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = forward

    def log_message(self, *args):
        pass


EXPORTED = 1000
# The export reads pages the size of the index's max_result_window: ten pages here.
PAGE = 100


@pytest.fixture
def slow_export(engine, tmp_path):
    """An index of EXPORTED small documents paged by PAGE, behind a proxy that holds each search."""
    index = f"progress-{uuid.uuid4().hex[:8]}"
    node_request(engine, f"/{index}", "PUT", {"settings": {"index": {"max_result_window": PAGE}}})
    lines = "".join(f'{{"index": {{"_id": "{n}"}}}}\n{{"n": {n}}}\n' for n in range(EXPORTED))
    node_request(engine, f"/{index}/_bulk?refresh=true", "POST", lines)
    handler = type("Proxy", (DelayingProxy,), {"target": engine["es"]})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    proxy = f"http://127.0.0.1:{server.server_port}"
    try:
        yield {"index": index, "connect": connect_line({**engine, "es": proxy}), "file": tmp_path / "exported.jsonl"}
    finally:
        server.shutdown()
        server.server_close()
        node_request(engine, f"/{index}", "DELETE")


def test_export_progress_is_one_output_updated_in_place(engine, python_kernel, slow_export, tmp_path):
    manager, client, _ = python_kernel
    execute(client, "%load_ext searchbook")
    reply, _ = execute(client, f"%searchbook {slow_export['connect']}")
    assert reply["status"] == "ok"
    export = f"%searchbook %export {slow_export['index']} {slow_export['file']}"
    reply, outputs = execute(client, export)
    assert reply["status"] == "ok"
    shown = [o for o in outputs if o["msg_type"] == "display_data"]
    updates = [o for o in outputs if o["msg_type"] == "update_display_data"]
    # One output, shown once with a display id and then replaced under that id, never appended to.
    assert len(shown) == 1 and [o["msg_type"] for o in outputs] == ["display_data"] + ["update_display_data"] * len(updates)
    display_id = shown[0]["content"]["transient"]["display_id"]
    assert display_id and len(updates) > 1
    assert {o["content"]["transient"]["display_id"] for o in updates} == {display_id}
    texts = [o["content"]["data"]["text/plain"] for o in [*shown, *updates]]
    assert any(re.match(rf"Exporting {slow_export['index']} to \S+: [\d,]+ of 1,000 documents", t) for t in texts[:-1])
    assert texts[-1].startswith(f"Exported 1,000 documents of {slow_export['index']}")
    assert '<progress max="1000" value="1000"></progress>' in updates[-1]["content"]["data"]["text/html"]
    assert len(slow_export["file"].read_text().splitlines()) == EXPORTED

    # In a notebook run by nbclient (as JupyterLab keeps outputs), the cell keeps one output: the final line.
    nb, saved = run_notebook(
        [new_code_cell("%load_ext searchbook"), magic(slow_export["connect"]), magic(f"%export {slow_export['index']} {slow_export['file']} overwrite")],
        PYTHON_KERNEL,
        tmp_path,
    )
    outputs = nb.cells[2].outputs
    assert len(outputs) == 1 and outputs[0].output_type == "display_data"
    assert outputs[0].data["text/plain"].startswith(f"Exported 1,000 documents of {slow_export['index']}")
    assert engine["es_password"] not in saved


EXAMPLE = REPO / "examples" / "python.ipynb"


def test_the_python_example_is_committed_clean_and_reads_its_addresses_from_the_environment():
    nb = nbformat.read(EXAMPLE, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    assert not [c.source for c in code if re.search(r"127\.0\.0\.1|localhost|:9200|password=(?!\$\{env:)", c.source)]
    assert any("%connect elasticsearch ${env:SEARCHBOOK_ES_URL} " in c.source for c in code)


def test_the_python_example_runs_top_to_bottom_with_dataframes_a_loop_and_an_export(sandbox, tmp_path, monkeypatch):
    pytest.importorskip("pandas")
    monkeypatch.setenv("SEARCHBOOK_ES_URL", sandbox["es"])
    # The example exports into a folder of the temporary directory, as a reader's run does: here
    # the test's own, removed with it.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    nb = nbformat.read(EXAMPLE, as_version=4)
    # allow_errors stays off: any error fails the run.
    NotebookClient(nb, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(tmp_path)}}).execute()
    by_id = {c.id: c for c in nb.cells}

    def result(cell_id):
        return [o for o in by_id[cell_id].outputs if o.output_type == "execute_result"][0].data["text/plain"]

    assert "Connected to Elasticsearch" in displays(by_id["connect"])[0].data["text/plain"]
    grid = with_rows(displays(by_id["search"])[0].data[HITS])
    assert len(grid["rows"]) == 10
    dtypes = result("hits-frame")
    assert re.search(r"created_at\s+datetime64\[ns, UTC\]", dtypes) and re.search(r"price\s+float64", dtypes)
    head = result("hits-head")
    assert all(row["name"] in head for row in grid["rows"][:5])
    buckets = displays(by_id["aggs"])[0].data[HITS]["aggregations"][0]["rows"]
    assert all(b["key"] in result("aggs-frame") and str(b["doc_count"]) in result("aggs-frame") for b in buckets)
    try:
        import matplotlib  # noqa: F401

        assert [o for o in by_id["plot"].outputs if "image/png" in o.get("data", {})]
    except ImportError:
        assert "matplotlib is not installed" in printed(by_id["plot"])
    searched = [with_rows(o.data[HITS]) for o in displays(by_id["loop"])]
    assert [s["info"]["path"].split("&")[0] for s in searched] == [f"/products/_search?q=category:{b['key']}" for b in buckets[:3]]
    assert all(row["name"] in result("loop") for s in searched for row in s["rows"])
    listed = with_rows(displays(by_id["list"])[0].data[HITS])["rows"]
    assert listed and {row["category"] for row in listed} <= {b["key"] for b in buckets[:2]}
    exported = re.search(r"Exported (\d+) documents", displays(by_id["export"])[0].data["text/plain"])
    assert exported and printed(by_id["read-export"]).strip() == f"{exported.group(1)} products under 10"
    path = tmp_path / "python-run.ipynb"
    nbformat.write(nb, path)
    text = path.read_text()
    assert sandbox["es_password"] not in text and ROWS not in text


def test_a_long_past_2_53_keeps_every_digit_in_json_and_rows(engine, tmp_path):
    big = 9007199254740993
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(engine)),
            magic('PUT /exact-py\n{"mappings": {"properties": {"n": {"type": "long"}}}}'),
            magic(f'PUT /exact-py/_doc/1?refresh=true\n{{"n": {big}, "list": [{big}, 1]}}'),
            new_code_cell("%%searchbook --save doc\nGET /exact-py/_doc/1"),
            new_code_cell("%%searchbook --save found\nGET /exact-py/_search"),
            new_code_cell(
                "import json\n"
                "print(json.dumps({'doc': doc.json['_source'], 'row': {c: found.rows[0][c] for c in ('n', 'list')},\n"
                "    'hit': found.json['hits']['hits'][0]['_source']}))"
            ),
        ],
        PYTHON_KERNEL,
        tmp_path,
    )
    seen = json.loads(printed(nb.cells[6]))
    assert seen == {
        "doc": {"n": big, "list": [big, 1]},
        "row": {"n": big, "list": [big, 1]},
        "hit": {"n": big, "list": [big, 1]},
    }
