"""Times notebook cells as a Jupyter frontend sees them, for bench/cell-vs-ipykernel.ts: from
execute_request to the kernel going idle with every output received, through jupyter_client.
Also weighs each answer as a saved notebook holds it (nbformat, as JupyterLab saves).

A line server, so the benchmark can interleave its own raw requests with the cells: each
stdin line is a JSON command, each answer one JSON line on stdout.
  {"start": name, "kernel": kernelspec, "setup": [cells]}  -> {"ok": true}
  {"run": name, "code": cell, "weigh": bool}               -> {"ms": elapsed, "weight": bytes or null, "cpuMs": cpu}
`cpuMs`: CPU time the kernel and the processes it started (a searchbook kernel beside a Python
one) spent on the cell, user and system: a figure the machine's other load sways less than time.
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
    # As JupyterLab and Notebook send a cell: counted, and kept in the kernel's history.
    msg_id = kc.execute(code, store_history=True)
    received = []
    while True:
        msg = kc.get_iopub_msg(timeout=120)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind == "status" and msg["content"]["execution_state"] == "idle":
            break
        if kind in ("display_data", "execute_result", "stream", "error"):
            received.append(msg)
    elapsed = (time.perf_counter() - started) * 1000
    # Made into notebook outputs after the clock stops: a frontend's own work is not the kernel's.
    outputs = [output_from_msg(msg) for msg in received]
    reply = kc.get_shell_msg(timeout=120)
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"cell failed: {code[:80]!r}: {reply['content']}")
    return elapsed, outputs


def tree_cpu_seconds(km):
    """User and system CPU seconds of the kernel's process and every process under it, so far."""
    import psutil

    try:
        root = psutil.Process(km.provisioner.process.pid)
        processes = [root, *root.children(recursive=True)]
    except (AttributeError, psutil.Error):
        return None
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def saved_weight(outputs):
    """Bytes these outputs add to a notebook saved by nbformat (indent 1, as JupyterLab saves)."""
    bare = new_notebook(cells=[new_code_cell("x")])
    full = new_notebook(cells=[new_code_cell("x", outputs=outputs)])
    return len(nbformat.writes(full).encode()) - len(nbformat.writes(bare).encode())


def main():
    kernels = {}
    try:
        for line in sys.stdin:
            command = json.loads(line)
            if "start" in command:
                km, kc = start_new_kernel(kernel_name=command["kernel"])
                kernels[command["start"]] = (km, kc)
                for code in command["setup"]:
                    run_cell(kc, code)
                answer = {"ok": True}
            else:
                km, kc = kernels[command["run"]]
                cpu_before = tree_cpu_seconds(km)
                ms, outputs = run_cell(kc, command["code"])
                cpu_after = tree_cpu_seconds(km)
                cpu_ms = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) * 1000
                answer = {"ms": ms, "weight": saved_weight(outputs) if command.get("weigh") else None, "cpuMs": cpu_ms}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
    finally:
        for km, kc in kernels.values():
            kc.stop_channels()
            # A shutdown_request, not a kill: a kernel run under --cpu-prof writes its profile as it exits.
            km.shutdown_kernel(now=False)


if __name__ == "__main__":
    main()
