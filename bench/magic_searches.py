"""Each search of bench:magic-client timed on its own, inside the Python kernel, and this build's
python/searchbook against another's (`--against DIR`, the python/ folder of that build) in two
ipykernels beside each other, cells interleaved: whole-loop medians swing with a loaded machine,
while the low percentiles of single searches say what a search costs when it is let run. Both
use this checkout's searchbook kernel; the other build's magics ask it only what they ask.

    .venv/bin/python bench/magic_searches.py http://127.0.0.1:PORT --against /tmp/main/python [--runs 6] [--searches 50]

Prints p10, p25 and the median of a search per cell, each against the client's (elasticsearch-py
+ json_normalize), and the load average after each round. Asserts nothing.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from jupyter_client.manager import start_new_kernel

REPO = Path(__file__).resolve().parents[1]
CELLS = {
    "client": 'df = pd.json_normalize(es.search(index="products", size=1000, q=f"price:>={i}").body["hits"]["hits"])',
    "quiet": "a = %searchbook -q GET /products/_search?size=1000&q=price:>=${i}\ndf = a.to_pandas()",
    "shown": "a = %searchbook GET /products/_search?size=1000&q=price:>=${i}\ndf = a.to_pandas()",
}


def run(kc, code):
    """Runs a cell to its idle; what it printed."""
    msg_id = kc.execute(code, store_history=True)
    printed = []
    while True:
        msg = kc.get_iopub_msg(timeout=300)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind == "status" and msg["content"]["execution_state"] == "idle":
            break
        if kind == "error":
            raise RuntimeError(msg["content"]["evalue"])
        if kind == "stream":
            printed.append(msg["content"]["text"])
    kc.get_shell_msg(timeout=120)
    return "".join(printed)


def timed_loop(body, searches):
    inner = "\n".join("    " + line for line in body.split("\n"))
    return (
        f"_took = []\nfor i in range({searches}):\n    _at = time.perf_counter()\n{inner}\n"
        "    _took.append(time.perf_counter() - _at)\nprint(json.dumps(_took))"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--against", required=True, help="the python/ folder of the build to compare with")
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--searches", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="searchbook-bench-") as prefix:
        # The kernelspec is all it needs (the install also says whether the JupyterLab extension is built).
        installed = subprocess.run(["node", str(REPO / "bin" / "searchbook.js"), "install", "--prefix", prefix], capture_output=True, text=True)
        if not (Path(prefix) / "share" / "jupyter" / "kernels" / "searchbook" / "kernel.json").exists():
            raise SystemExit(f"the searchbook kernelspec was not installed:\n{installed.stdout}{installed.stderr}")
        env = {**os.environ, "JUPYTER_PATH": str(Path(prefix) / "share" / "jupyter")}
        os.environ["JUPYTER_PATH"] = env["JUPYTER_PATH"]
        kernels = {side: start_new_kernel(kernel_name="python3", env={**env, "PYTHONPATH": path}) for side, path in (("other", args.against), ("this", str(REPO / "python")))}
        try:
            for _, kc in kernels.values():
                run(kc, f"import json, time\nimport pandas as pd\nfrom elasticsearch import Elasticsearch\nes = Elasticsearch({args.url!r})\n%load_ext searchbook")
                run(kc, f"%%searchbook -q\n%connect elasticsearch {args.url}")
            modes = [("client", "other"), ("quiet", "other"), ("quiet", "this"), ("shown", "other"), ("shown", "this")]
            for cell, side in modes:
                run(kernels[side][1], timed_loop(CELLS[cell], 5))
            took = {mode: [] for mode in modes}
            loads = []
            for _ in range(args.runs):
                for cell, side in modes:
                    took[(cell, side)] += json.loads(run(kernels[side][1], timed_loop(CELLS[cell], args.searches)))
                loads.append(os.getloadavg()[0])
        finally:
            for km, kc in kernels.values():
                kc.stop_channels()
                km.shutdown_kernel()

    def at(values, share):
        return sorted(values)[int(len(values) * share)] * 1000

    client = took[("client", "other")]
    print(f"{args.url}: one search's time in ms (and against the client's), {len(client)} searches each")
    for (cell, side), values in took.items():
        name = cell if cell == "client" else f"{cell} ({'this build' if side == 'this' else 'the other'})"
        shares = "  ".join(f"{label} {at(values, share):6.1f} ({at(values, share) / at(client, share):.2f}x)" for label, share in (("p10", 0.1), ("p25", 0.25), ("median", 0.5)))
        print(f"  {name:20s} {shares}")
    print(f"  load average (1 min) after each round: {', '.join(f'{load:.1f}' for load in loads)}")


if __name__ == "__main__":
    main()
