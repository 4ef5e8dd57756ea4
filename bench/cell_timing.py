"""Times notebook cells as a Jupyter frontend sees them, for bench/cell-vs-ipykernel.ts: from
execute_request to the kernel going idle with every output received, through jupyter_client.
Also weighs each answer as a saved notebook holds it (nbformat, as JupyterLab saves).

Input (stdin, JSON): {"kernel": name, "setup": [cells], "cells": {label: code}, "runs": n}.
Output (stdout, JSON): {label: {"ms": [per run], "weight": bytes in the saved notebook}}.
"""
import json
import sys
import time

import nbformat
from jupyter_client.manager import start_new_kernel
from nbformat.v4 import new_code_cell, new_notebook, output_from_msg


def run_cell(kc, code):
    """One cell: returns (milliseconds, outputs) once idle has come with every output before it."""
    started = time.perf_counter()
    msg_id = kc.execute(code, store_history=False)
    outputs = []
    while True:
        msg = kc.get_iopub_msg(timeout=120)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind == "status" and msg["content"]["execution_state"] == "idle":
            break
        if kind in ("display_data", "execute_result", "stream", "error"):
            outputs.append(output_from_msg(msg))
    elapsed = (time.perf_counter() - started) * 1000
    reply = kc.get_shell_msg(timeout=120)
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"cell failed: {code[:80]!r}: {reply['content']}")
    return elapsed, outputs


def saved_weight(outputs):
    """Bytes these outputs add to a notebook saved by nbformat (indent 1, as JupyterLab saves)."""
    bare = new_notebook(cells=[new_code_cell("x")])
    full = new_notebook(cells=[new_code_cell("x", outputs=outputs)])
    return len(nbformat.writes(full).encode()) - len(nbformat.writes(bare).encode())


def main():
    job = json.load(sys.stdin)
    km, kc = start_new_kernel(kernel_name=job["kernel"])
    try:
        for code in job["setup"]:
            run_cell(kc, code)
        results = {}
        for label, code in job["cells"].items():
            run_cell(kc, code)  # warm: connections, caches, JIT
            times, outputs = [], []
            for _ in range(job["runs"]):
                ms, outputs = run_cell(kc, code)
                times.append(ms)
            results[label] = {"ms": times, "weight": saved_weight(outputs)}
        json.dump(results, sys.stdout)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
