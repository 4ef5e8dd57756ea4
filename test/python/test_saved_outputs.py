"""What a saved notebook holds of each answer, and how it reads without searchbook: the engine's
answer is kept once (rebuilt here from the notebook alone), a saved notebook weighs at most
1.15x the engine's bytes at 1,000 and 10,000 hits, and nbconvert's HTML export shows readable,
escaped tables, highlights the cells, and holds no secret."""
import base64
import gzip
import json
import logging
import os
import urllib.request

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter
from nbformat.v4 import new_code_cell, new_notebook

HITS = "application/vnd.searchbook.hits+json"
MATCH = {"match": {"description": "durable lightweight stylish powerful quiet handy"}}
SWAP = str.maketrans({'"': "'", "'": '"'})
HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def engine_answer(sandbox, path, body):
    """The engine's answer to a request, asked directly: its bytes and its JSON value."""
    request = urllib.request.Request(f"{sandbox['es']}{path}", data=json.dumps(body).encode(), method="POST")
    token = base64.b64encode(f"elastic:{sandbox['es_password']}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as response:
        raw = response.read()
    return raw, json.loads(raw)


def saved_weight(outputs):
    """Bytes these outputs add to a notebook saved as JupyterLab saves it."""
    bare = new_notebook(cells=[new_code_cell("x")])
    full = new_notebook(cells=[new_code_cell("x", outputs=outputs)])
    return len(nbformat.writes(full).encode()) - len(nbformat.writes(bare).encode())


def without_took(value):
    return {k: v for k, v in value.items() if k != "took"}


def run_notebook(sandbox, cells):
    os.environ.update({"ES_PASSWORD": sandbox["es_password"], "SEARCHBOOK_MAX_ROWS": "10000"})
    connect = f"%connect elasticsearch {sandbox['es']} auth=basic user=elastic password=${{env:ES_PASSWORD}}"
    nb = new_notebook(cells=[new_code_cell(connect), *[new_code_cell(c) for c in cells]],
                      metadata={"kernelspec": {"name": "searchbook", "display_name": "searchbook", "language": "searchbook"}})
    try:
        NotebookClient(nb, kernel_name="searchbook", timeout=120).execute()
    finally:
        del os.environ["SEARCHBOOK_MAX_ROWS"]
    return nb


def test_each_answer_is_kept_once_and_rebuilt_exactly_from_the_notebook(sandbox):
    sizes = [1000, 10000]
    nb = run_notebook(sandbox, [f"GET /products/_search\n{json.dumps({'size': size, 'query': MATCH})}" for size in sizes])
    for size, cell in zip(sizes, nb.cells[1:]):
        [output] = cell.outputs
        assert "application/json" not in output.data
        payload = output.data[HITS]
        assert "rows" not in payload
        raw, value = engine_answer(sandbox, "/products/_search", {"size": size, "query": MATCH})
        # Past 64 KiB, kept compressed: read as a script without searchbook would.
        assert payload["answerFormat"] == "json, quotes swapped, gzip, base64"
        kept = json.loads(gzip.decompress(base64.b64decode(payload["answer"])).decode().translate(SWAP))
        assert len(kept["hits"]["hits"]) == size
        # `took` is the only part of an answer that changes from one request to the next.
        assert without_took(kept) == without_took(value)
        weight = saved_weight(cell.outputs)
        assert weight <= 1.15 * len(raw), f"{size} hits: the notebook holds {weight / len(raw):.3f}x the engine's bytes"
        assert "This table shows the first" in output.data["text/html"]
        assert "in the grid" not in output.data["text/html"] + output.data["text/plain"]


def test_html_export_reads_well_without_searchbook(sandbox, caplog):
    nb = run_notebook(sandbox, [
        f'PUT /hostile/_doc/1?refresh=true\n{json.dumps({"name": HOSTILE, "n": 1})}',
        "GET /hostile/_search",
        'GET /products/_search\n{"size": 0, "aggs": {"brands": {"terms": {"field": "brand.keyword"}}}}',
    ])
    assert nb.metadata.language_info.pygments_lexer == "bash"
    with caplog.at_level(logging.WARNING):
        html, _ = HTMLExporter().from_notebook_node(nb)
    assert "No lexer found" not in caplog.text
    assert "<script>alert(1)" not in html and "onerror=alert(2)>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # The hits table, with its columns, and the aggregation's table without an empty hits table before it.
    assert '<table class="searchbook-table">' in html and "<th>_id</th>" in html and "<th>name</th>" in html
    assert "<caption>Aggregation brands</caption>" in html
    aggs_cell = nb.cells[3].outputs[0].data["text/html"]
    assert aggs_cell.count("<table") == 1 and "<th>_id</th>" not in aggs_cell
    assert sandbox["es_password"] not in html
    # The cells are highlighted (strings get their own class), not plain text.
    assert '<span class="s2">' in html or '<span class="s1">' in html
