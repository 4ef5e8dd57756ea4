"""Runs a notebook through nbclient on its own kernel (searchbook, or Python for the IPython extension's example), as `jupyter nbconvert --execute`
would, with the sandbox addresses of this run where the notebook reads them
(SEARCHBOOK_ES_URL and SEARCHBOOK_TYPESENSE_URL, as `npm start` sets them), and prints what
each code cell showed as JSON. Runs in the Python environment under test.

    python run-notebook.py NOTEBOOK ES_URL TS_URL
"""
import base64
import gzip
import json
import os
import sys

import nbformat
from nbclient import NotebookClient

HITS = "application/vnd.searchbook.hits+json"


def row_count(hits):
    """Rows of a hits payload: stored, or the documents of the answer it keeps (JSON text with
    `"` and `'` swapped, gzip-compressed and base64-encoded past 64 KiB, the documents at the
    `documents.at` path), read as a script would."""
    if "rows" in hits:
        return len(hits["rows"])
    text = hits["answer"]
    if hits.get("answerFormat") == "json, quotes swapped, gzip, base64":
        text = gzip.decompress(base64.b64decode(text)).decode()
    value = json.loads(text.translate(str.maketrans({'"': "'", "'": '"'})))
    for step in hits["documents"]["at"]:
        value = value[step]
    return len(value) if isinstance(value, list) else 1


def shown(output):
    data = output.get("data", {})
    hits = data.get(HITS)
    return {
        "type": output.output_type,
        "mimes": sorted(data),
        "ename": output.get("ename"),
        "columns": [c["name"] if isinstance(c, dict) else c for c in hits["columns"]] if hits else None,
        "rows": row_count(hits) if hits else None,
    }


def main(path, es_url, ts_url):
    nb = nbformat.read(path, as_version=4)
    # The kernel inherits this environment.
    os.environ["SEARCHBOOK_ES_URL"] = es_url
    os.environ["SEARCHBOOK_TYPESENSE_URL"] = ts_url
    # Errors outside the cells tagged raises-exception stop the run and fail the caller.
    NotebookClient(nb, kernel_name=nb.metadata["kernelspec"]["name"], timeout=60).execute()
    cells = [{"id": c.get("id"), "outputs": [shown(o) for o in c.outputs]} for c in nb.cells if c.cell_type == "code"]
    print(json.dumps({"language": nb.metadata.get("language_info", {}).get("name"), "cells": cells}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
