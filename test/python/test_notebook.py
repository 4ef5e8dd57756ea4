"""nbclient runs a notebook top to bottom with the installed searchbook kernel against the
sandbox engines, as "Run All" in JupyterLab would."""
import json
import os

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

from conftest import with_rows

HITS = "application/vnd.searchbook.hits+json"
TABLE = "application/vnd.searchbook.table+json"


def run(cells, sandbox):
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "searchbook", "display_name": "searchbook", "language": "searchbook"}})
    env = {"ES_PASSWORD": sandbox["es_password"], "TYPESENSE_API_KEY": sandbox["ts_api_key"]}
    os.environ.update(env)
    NotebookClient(nb, kernel_name="searchbook", timeout=60).execute()
    return nb


def outputs_of(cell, kind):
    return [o for o in cell.outputs if o.output_type == kind]


def test_a_notebook_runs_against_both_engines_and_keeps_no_secret(sandbox, tmp_path):
    refused = new_code_cell("SELECT * FROM products")
    refused.metadata["tags"] = ["raises-exception"]
    nb = run(
        [
            new_code_cell(f"%connect elasticsearch {sandbox['es']} auth=basic user=elastic password=${{env:ES_PASSWORD}}"),
            new_code_cell('%set color = "red"\nGET /products/_search\n{"size": 5, "query": {"match_all": {}}}'),
            new_code_cell("GET /_cat/indices?format=json"),
            refused,
            new_code_cell(f"%connect typesense {sandbox['ts']} key=${{env:TYPESENSE_API_KEY}}"),
            new_code_cell("GET /collections/books/documents/search?q=*&per_page=3"),
            new_code_cell("%connections"),
        ],
        sandbox,
    )
    connect, search, cat, sql, ts_connect, ts_search, listing = nb.cells

    assert "Connected to Elasticsearch 8.15.0" in outputs_of(connect, "display_data")[0].data["text/plain"]
    hits = outputs_of(search, "display_data")[0].data
    assert len(with_rows(hits[HITS])["rows"]) == 5
    assert [c["name"] for c in hits[HITS]["columns"]][:3] == ["_id", "_index", "_score"]
    assert hits[HITS]["total"]["value"] == 10000 and hits[HITS]["total"]["relation"] == "gte"
    assert "<table" in hits["text/html"] and "≥10000 total" in hits["text/plain"]
    assert any(row["index"] == "products" for row in with_rows(outputs_of(cat, "display_data")[0].data[TABLE])["rows"])
    assert outputs_of(sql, "error")[0].ename == "SQLRefused"
    assert "Connected to Typesense" in outputs_of(ts_connect, "display_data")[0].data["text/plain"]
    ts_hits = with_rows(outputs_of(ts_search, "display_data")[0].data[HITS])
    assert len(ts_hits["rows"]) == 3 and ts_hits["columns"][0]["name"] == "id"
    assert "active" in outputs_of(listing, "display_data")[0].data["text/plain"]

    path = tmp_path / "run.ipynb"
    nbformat.write(nb, path)
    saved = path.read_text()
    assert sandbox["es_password"] not in saved and sandbox["ts_api_key"] not in saved
    json.loads(saved)


def test_an_engine_error_fails_the_cell_with_the_engine_reason(sandbox):
    failing = new_code_cell("GET /no-such-index/_search")
    failing.metadata["tags"] = ["raises-exception"]
    nb = run(
        [
            new_code_cell(f"%connect elasticsearch {sandbox['es']} auth=basic user=elastic password=${{env:ES_PASSWORD}}"),
            failing,
        ],
        sandbox,
    )
    error = outputs_of(nb.cells[1], "error")[0]
    assert "404" in error.evalue and "no such index [no-such-index]" in error.evalue
    # The full engine body stays available above the error.
    assert outputs_of(nb.cells[1], "display_data")[0].data["application/json"]["status"] == 404
