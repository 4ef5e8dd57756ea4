"""Answers nested as deep as the kernel reads them (up to 1,000 levels) keep the notebook
readable by Python's tools: nbclient runs a notebook of each such answer (a JSON answer and a
search whose documents nest that deep) with the installed searchbook kernel, nbformat reads the
saved notebook back and nbconvert exports it; parts nested deeper than the outputs keep are
replaced by a note saying so, and shallower answers are kept whole."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import nbformat
import pytest
from nbclient import NotebookClient
from nbconvert import HTMLExporter
from nbformat.v4 import new_code_cell, new_notebook

JSON_MIME = "application/json"
HITS = "application/vnd.searchbook.hits+json"
ROWS = "application/vnd.searchbook.rows+json"
# The deepest answer the kernel reads as JSON, and the depth its outputs keep.
MAX_ANSWER_DEPTH = 1000
OUTPUT_DEPTH = 200
DEPTHS = [1, 199, 200, 201, 300, 480, 500, 750, 999, MAX_ANSWER_DEPTH]
CUT = "searchbook: nested deeper than 200 levels"


def nested(depth):
    """JSON text of an object nested `depth` levels deep, its innermost value 7."""
    return '{"a":' * depth + "7" + "}" * depth


def search(depth):
    """A search answer whose one document's field nests so the whole answer is `depth` deep."""
    inner = max(depth - 5, 1)
    return (
        '{"took":1,"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_index":"deep","_id":"1","_score":1,'
        f'"_source":{{"f":{nested(inner)}}}}}]}}}}'
    )


class Engine(BaseHTTPRequestHandler):
    def do_GET(self):
        path = self.path.split("?")[0]
        if path.startswith("/json"):
            body = nested(int(path.split("/")[1][4:]))
        elif path.startswith("/hits"):
            body = search(int(path.split("/")[1][4:]))
        else:
            body = json.dumps({"name": "deep", "cluster_name": "t", "version": {"number": "8.15.0"}, "tagline": "You Know, for Search"})
        data = body.encode()
        self.send_response(200)
        self.send_header("x-elastic-product", "Elasticsearch")
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def engine():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Engine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def depth_of(value):
    depth = 0
    while isinstance(value, (dict, list)):
        value = value["a"] if isinstance(value, dict) and "a" in value else next(iter(value.values())) if isinstance(value, dict) else value[0]
        depth += 1
    return depth, value


def test_a_notebook_of_every_accepted_nesting_depth_runs_saves_reads_back_and_exports(engine, tmp_path):
    cells = [new_code_cell(f"%connect elasticsearch {engine} auth=none name=deep")]
    for depth in DEPTHS:
        cells.append(new_code_cell(f"GET /json{depth}/_search"))
        cells.append(new_code_cell(f"GET /hits{depth}/_search"))
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "searchbook", "display_name": "searchbook", "language": "searchbook"}})
    NotebookClient(nb, kernel_name="searchbook", timeout=60).execute()

    path = tmp_path / "deep.ipynb"
    nbformat.write(nb, path)
    read = nbformat.read(path, as_version=4)
    nbformat.validate(read)
    html, _ = HTMLExporter().from_notebook_node(read)
    assert "deep: GET /json1000/_search" in html

    for i, depth in enumerate(DEPTHS):
        as_json, as_hits = read.cells[1 + 2 * i], read.cells[2 + 2 * i]
        assert [o.output_type for o in as_json.outputs] == ["display_data"], depth
        assert [o.output_type for o in as_hits.outputs] == ["display_data"], depth
        kept, innermost = depth_of(as_json.outputs[0].data[JSON_MIME])
        if depth <= OUTPUT_DEPTH:
            assert (kept, innermost) == (depth, 7)
        else:
            assert kept == OUTPUT_DEPTH and innermost.startswith(CUT), depth
        # The text form shows the answer as text: whole, or cut for its length and saying so.
        text = as_json.outputs[0].data["text/plain"]
        assert text.count('"a"') == depth or "the notebook keeps its first" in text
        assert as_hits.outputs[0].data[HITS]["columns"][0]["name"] == "_id"
