"""Every notebook in examples/ runs top to bottom with the installed searchbook kernel against
the sandbox engines, as "Run All" in JupyterLab would, and shows what a user expects to see.
The Elasticsearch example also runs against real Elasticsearch nodes (8.19 with security, 7.17),
loaded with the same sample data.

A new examples/*.ipynb is picked up by the glob and gets the checks every example gets (it
runs without unexpected errors, its tagged cells do fail, it is committed without outputs, no
secret reaches the saved file); add an entry to CHECKS for what it should show.
"""
import json
import os
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import with_rows

REPO = Path(__file__).resolve().parents[2]
# The searchbook kernel's notebooks; a Python notebook's (examples/python.ipynb, searchbook's
# IPython extension) runs in test_ipython_magics.py.
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*.ipynb") if json.loads(p.read_text(encoding="utf-8"))["metadata"]["kernelspec"]["name"] == "searchbook")

HITS = "application/vnd.searchbook.hits+json"
TABLE = "application/vnd.searchbook.table+json"

# The examples connect to ${env:SEARCHBOOK_ES_URL} and ${env:SEARCHBOOK_TYPESENSE_URL}, which
# `npm start` sets to where its sandbox listens; the tests set them to the fixture's free ports
# (a developer's own `npm start` may hold 9200 and 8108). Nothing in a notebook is changed.


# Where the sandbox knowingly answers unlike Elasticsearch: one list for every suite.
SANDBOX_DIFFERENCES = json.loads((REPO / "test" / "support" / "sandbox-differences.json").read_text(encoding="utf-8"))


def expect_for(engine, difference, sandbox, elasticsearch):
    """The expectation for this engine, naming the known difference that makes them differ."""
    assert difference in SANDBOX_DIFFERENCES, f"unknown sandbox difference {difference}"
    return sandbox if engine == "sandbox" else elasticsearch


# Which Elasticsearch each example runs against: the sandbox, and for a notebook that talks to
# Elasticsearch, the real nodes too (their Typesense stays the sandbox's).
REAL_NODES = ["8.19-security", "7.17"]
RUNS = [(p, "sandbox") for p in EXAMPLES] + [(p, f"real-{v}") for p in EXAMPLES if p.name == "elasticsearch.ipynb" for v in REAL_NODES]
RUN_IDS = [f"{p.name}-{engine}" for p, engine in RUNS]


@pytest.fixture
def engines(request, sandbox, real_elasticsearch):
    """The addresses and secrets a run's notebook is pointed at."""
    engine = request.param
    if engine == "sandbox":
        return {**sandbox, "engine": engine}
    return {**sandbox, **real_elasticsearch(engine.removeprefix("real-")), "engine": engine}


def test_there_are_examples():
    assert {p.name for p in EXAMPLES} >= {"elasticsearch.ipynb", "typesense.ipynb"}


def test_examples_connect_wherever_the_sandbox_runs():
    """No code cell names a fixed address: the first cells read it from the environment."""
    for path in EXAMPLES:
        code = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
        assert not [src for src in code if re.search(r"127\.0\.0\.1|localhost|:9200|:8108", src)], path.name
        assert any(re.match(r"%connect \w+ \$\{env:SEARCHBOOK_(ES|TYPESENSE)_URL\} ", src) for src in code), path.name


def kernel_env(engines):
    """What `npm start` gives the kernel: the secrets, and the addresses the examples connect to."""
    return {
        **os.environ,
        "ES_PASSWORD": engines["es_password"],
        "TYPESENSE_API_KEY": engines["ts_api_key"],
        "SEARCHBOOK_ES_URL": engines["es"],
        "SEARCHBOOK_TYPESENSE_URL": engines["ts"],
    }


def execute(path, engines):
    nb = nbformat.read(path, as_version=4)
    # The kernel reads the secrets and addresses from its environment, as it does under `npm start`.
    env = kernel_env(engines)
    # allow_errors stays off: any error outside a cell tagged raises-exception fails the test.
    NotebookClient(nb, kernel_name="searchbook", timeout=60, resources={"metadata": {"path": str(path.parent)}}).execute(env=env)
    return nb


def cell(nb, cell_id):
    found = [c for c in nb.cells if c.get("id") == cell_id]
    assert len(found) == 1, f"no single cell with id {cell_id!r}"
    return found[0]


def displayed(c, mime):
    """The one display output of a cell carrying `mime`."""
    found = [o for o in c.outputs if o.output_type == "display_data" and mime in o.data]
    assert len(found) == 1, f"cell {c.id!r}: expected one {mime} output, got {[list(o.get('data', {})) for o in c.outputs]}"
    return found[0].data


def error_of(c):
    errors = [o for o in c.outputs if o.output_type == "error"]
    assert len(errors) == 1, f"cell {c.id!r} should fail once, outputs: {c.outputs}"
    return errors[0]


def column_names(payload):
    return [col["name"] if isinstance(col, dict) else col for col in payload["columns"]]


# What a user sees, per notebook ------------------------------------------------------------

def check_elasticsearch(nb, engine):
    assert "Connected to Elasticsearch" in displayed(cell(nb, "connect"), "text/plain")["text/plain"]

    search = displayed(cell(nb, "search"), HITS)
    hits = with_rows(search[HITS])
    # Mapping properties come sorted by name from the sandbox as from Elasticsearch.
    assert column_names(hits) == ["_id", "_index", "_score", "address.city", "brand", "category", "name", "price", "rating"]
    assert 0 < len(hits["rows"]) <= 10 and hits["total"]["value"] >= len(hits["rows"])
    for row in hits["rows"]:
        assert row["_index"] == "products"
        assert "wireless" in row["name"].lower() and "headphones" in row["name"].lower()
        assert row["price"] <= 100
    assert "<table" in search["text/html"] and "GET /products/_search → 200" in search["text/plain"]

    aggs = with_rows(displayed(cell(nb, "aggs"), HITS)[HITS])
    assert aggs["rows"] == [] and aggs["total"] == {"value": 25000, "relation": "eq"}
    tables = {a["name"]: a["rows"] for a in aggs["aggregations"]}
    assert set(tables) == {"categories", "price_histogram", "ratings"}
    assert {r["key"] for r in tables["categories"]} == {"home", "kitchen", "outdoor", "electronics", "office", "tools", "apparel"}
    assert [r["key"] for r in tables["price_histogram"]][:3] == [0, 50, 100] and len(tables["price_histogram"]) == 10
    assert len(tables["ratings"]) == 3
    assert all(r["doc_count"] > 0 for rows in tables.values() for r in rows)

    written = displayed(cell(nb, "write"), "application/json")["application/json"]
    assert written["_index"] == "searchbook-demo" and written["_id"] == "1" and written["result"] in ("created", "updated")
    read = displayed(cell(nb, "read"), "application/json")
    assert read["application/json"]["found"] is True
    assert read["application/json"]["_source"] == {"name": "Demo desk lamp", "brand": "Acme", "price": 24.5, "tags": ["demo", "lighting"]}
    assert "Demo desk lamp" in read["text/plain"]

    cat = with_rows(displayed(cell(nb, "cat"), TABLE)[TABLE])
    assert column_names(cat) == ["index", "health", "status", "docs.count", "store.size"]
    by_index = {r["index"]: r for r in cat["rows"]}
    # Every Lucene document counts, each nested variant included (the sandbox counts them too).
    assert by_index["products"]["docs.count"] == "62527"
    assert by_index["searchbook-demo"]["docs.count"] == "1"  # a re-run rewrites the same document

    sql = error_of(cell(nb, "sql"))
    assert sql.ename == "SQLRefused"
    assert "The console sends HTTP requests, not SQL" in sql.evalue and "Nothing was sent" in sql.evalue
    # The advice on what to write instead follows the message.
    assert any("Rewrite it as a request" in line for line in sql.traceback)
    assert [o for o in cell(nb, "sql").outputs if o.output_type != "error"] == []

    cheap = with_rows(displayed(cell(nb, "sql-as-request"), HITS)[HITS])
    assert column_names(cheap)[3:] == ["name", "price"] and all(r["price"] < 10 for r in cheap["rows"])


def check_typesense(nb, engine):
    assert "Connected to Typesense" in displayed(cell(nb, "connect"), "text/plain")["text/plain"]

    collections = with_rows(displayed(cell(nb, "collections"), HITS)[HITS])
    assert {r["name"] for r in collections["rows"]} >= {"books", "notes"}

    search = displayed(cell(nb, "search"), HITS)
    hits = with_rows(search[HITS])
    names = column_names(hits)
    assert names[0] == "id"
    assert {"title", "author", "genre", "year", "rating", "ratings_count", "meta.pages", "meta.publisher"} <= set(names)
    assert len(hits["rows"]) == 10 and hits["total"]["relation"] == "eq" and hits["total"]["value"] > 10
    assert all("garden" in r["title"].lower() and r["rating"] >= 4 for r in hits["rows"])
    counts = [r["ratings_count"] for r in hits["rows"]]
    assert counts == sorted(counts, reverse=True)
    assert "<table" in search["text/html"]

    multi = with_rows(displayed(cell(nb, "multi-search"), HITS)[HITS])
    assert column_names(multi) == ["id", "title", "author", "year"]
    assert 0 < len(multi["rows"]) <= 5 and all(r["year"] >= 2000 and "harbour" in r["title"].lower() for r in multi["rows"])

    several = [with_rows(o.data[HITS]) for o in cell(nb, "multi-search-2").outputs if o.output_type == "display_data" and HITS in o.data]
    assert [s["info"]["title"] for s in several] == ["Search 1 of 2: books", "Search 2 of 2: books"]
    assert [(len(s["rows"]), column_names(s)) for s in several] == [(2, ["id", "title", "author", "year"])] * 2

    export = displayed(cell(nb, "export"), HITS)
    rows = with_rows(export[HITS])["rows"]
    assert column_names(export[HITS]) == ["id", "title", "author", "year"]
    assert len(rows) > 10 and all(r["year"] < 1960 for r in rows)
    assert "<table" in export["text/html"]

    failing = cell(nb, "filter-error")
    error = error_of(failing)
    assert "Could not find a filter field named `price` in the schema" in error.evalue
    assert "Filter only on fields the collection declares" in error.evalue
    # The engine's full error body is shown above the error.
    assert "price" in displayed(failing, "application/json")["application/json"]["message"]

    schema = displayed(cell(nb, "schema"), "application/json")["application/json"]
    assert schema["name"] == "books" and "price" not in {f["name"] for f in schema["fields"]}


CHECKS = {"elasticsearch.ipynb": check_elasticsearch, "typesense.ipynb": check_typesense}


# Every example -----------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "engines"), RUNS, ids=RUN_IDS, indirect=["engines"])
def test_example_runs_top_to_bottom_and_shows_what_it_says(path, engines, tmp_path):
    # Twice against the same engines: Run All must work again on a notebook already run.
    for run in (1, 2):
        nb = execute(path, engines)
        for c in nb.cells:
            if c.cell_type != "code":
                continue
            tagged = "raises-exception" in c.metadata.get("tags", [])
            failed = any(o.output_type == "error" for o in c.outputs)
            assert failed == tagged, f"run {run}, cell {c.id!r}: {'fails' if failed else 'does not fail'} but is {'' if tagged else 'not '}tagged raises-exception"
            assert c.outputs, f"run {run}, cell {c.id!r} shows nothing"
        if path.name in CHECKS:
            CHECKS[path.name](nb, engines["engine"])

        saved = tmp_path / f"run{run}-{path.name}"
        nbformat.write(nb, saved)
        text = saved.read_text(encoding="utf-8")
        assert engines["es_password"] not in text and engines["ts_api_key"] not in text


@pytest.mark.parametrize(("path", "engines"), RUNS, ids=RUN_IDS, indirect=["engines"])
def test_run_all_as_jupyterlab_sends_it_goes_past_tagged_cells(path, engines):
    """JupyterLab's Run All queues every cell at once and sends a cell tagged raises-exception
    with stop_on_error false; the kernel must then not abort the cells queued behind it."""
    from jupyter_client.manager import start_new_kernel

    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    env = kernel_env(engines)
    km, kc = start_new_kernel(kernel_name="searchbook", env=env)
    try:
        sent = [
            kc.execute(c.source, stop_on_error="raises-exception" not in c.metadata.get("tags", []))
            for c in code
        ]
        replies = {}
        # Only the replies to these cells: a late kernel_info reply to start_new_kernel's
        # readiness probe can still come on the shell channel and is not one of them.
        while len(replies) < len(sent):
            reply = kc.get_shell_msg(timeout=60)
            parent = reply["parent_header"].get("msg_id")
            if parent in sent:
                replies[parent] = reply["content"]["status"]
        expected = ["error" if "raises-exception" in c.metadata.get("tags", []) else "ok" for c in code]
        assert [replies[m] for m in sent] == expected
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_is_committed_clean(path):
    """No outputs or execution counts (so the notebook diffs well) and the searchbook kernel."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"] == {"name": "searchbook", "display_name": "searchbook", "language": "searchbook"}
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    text = path.read_text(encoding="utf-8")
    # Secrets come from the kernel's environment; no literal password or key in the file.
    assert "sandbox-password" not in text and "sandbox-api-key" not in text
    for c in code:
        if c.source.startswith("%connect"):
            assert "${env:" in c.source
