"""searchbook's IPython extension in a real Python kernel (ipykernel): `%%searchbook` cells show
what the searchbook kernel shows for the same cell, answers come back as Python values and
DataFrames, Python values reach the request as JSON, and prompts, interrupts and errors pass
through; no secret reaches the notebook."""
import json
import os
import re
import select
import socket
import threading
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


def connect_line(sandbox):
    return f"%connect elasticsearch {sandbox['es']} auth=basic user=elastic password=${{env:ES_PASSWORD}}"


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


def test_a_magic_cell_shows_the_outputs_the_searchbook_kernel_shows(sandbox, tmp_path):
    cells = [connect_line(sandbox), SEARCH, "GET /_cat/indices/products?format=json&h=index,health", "GET /products/_count"]
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
    assert sandbox["es_password"] not in saved


def test_the_answer_is_a_value_whose_dataframe_holds_the_grids_rows_and_columns(sandbox, tmp_path):
    pytest.importorskip("pandas")
    nb, saved = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(sandbox)),
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
    assert sandbox["es_password"] not in saved


def test_python_values_reach_the_request_as_json(sandbox, tmp_path):
    nb, _ = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(sandbox)),
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


def test_a_failed_request_raises_with_the_engines_reason_and_no_secret(sandbox, tmp_path):
    failing = magic("GET /no-such-index/_search")
    failing.metadata["tags"] = ["raises-exception"]
    nb, saved = run_notebook(
        [
            new_code_cell("%load_ext searchbook"),
            magic(connect_line(sandbox)),
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
    assert sandbox["es_password"] not in saved


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


def reply_to(client, msg_id):
    for _ in range(100):
        reply = client.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply
    raise AssertionError(f"no reply to {msg_id}")


@pytest.fixture
def python_kernel():
    manager, client = start_new_kernel(kernel_name="python3")
    yield manager, client
    client.stop_channels()
    manager.shutdown_kernel(now=True)


def test_a_password_prompt_is_the_notebooks_and_the_password_is_shown_nowhere(sandbox, python_kernel):
    manager, client = python_kernel
    execute(client, "%load_ext searchbook")
    asked = []

    def type_password(content):
        asked.append(content)
        return sandbox["es_password"]

    reply, outputs = execute(
        client,
        f"%%searchbook\n%connect elasticsearch {sandbox['es']} auth=basic user=elastic",
        allow_stdin=True,
        on_stdin=type_password,
    )
    assert reply["status"] == "ok"
    assert len(asked) == 1 and asked[0]["password"] is True
    shown = json.dumps([o["content"] for o in outputs])
    assert "Connected to Elasticsearch" in shown and sandbox["es_password"] not in shown
    reply, outputs = execute(client, "%searchbook GET /products/_count")
    assert reply["status"] == "ok"
    assert [o["content"]["data"]["application/json"]["count"] > 0 for o in outputs if o["msg_type"] == "display_data"] == [True]


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


def test_an_interrupt_stops_the_request_in_flight_and_the_next_cell_runs(python_kernel):
    manager, client = python_kernel
    server = ThreadingHTTPServer(("127.0.0.1", 0), HoldingEngine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        execute(client, "%load_ext searchbook")
        reply, _ = execute(client, f"%searchbook %connect elasticsearch http://127.0.0.1:{server.server_port}")
        assert reply["status"] == "ok"
        msg_id = client.execute("%searchbook GET /slow/_search")
        assert HoldingEngine.arrived.wait(60)
        manager.interrupt_kernel()
        reply = reply_to(client, msg_id)
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
        # What the searchbook kernel said of its own cell: it was interrupted, not left running.
        assert "the request in flight was aborted" in reply["content"]["evalue"]
        assert HoldingEngine.hung_up.wait(60)
        # The same searchbook kernel, with its connection, runs the next cell.
        reply, outputs = execute(client, "%searchbook GET /")
        assert reply["status"] == "ok"
        assert [o["content"]["data"]["application/json"]["name"] for o in outputs if o["msg_type"] == "display_data"] == ["holding"]
    finally:
        server.shutdown()
        server.server_close()


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
