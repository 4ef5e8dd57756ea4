"""Installs the searchbook kernelspec into a throwaway prefix and points Jupyter at it,
so the Python suites start the kernel exactly as Jupyter Server would."""
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PREFIX = Path(tempfile.mkdtemp(prefix="searchbook-prefix-"))

subprocess.run(
    ["node", str(REPO / "bin" / "searchbook.js"), "install", "--prefix", str(PREFIX)],
    check=True,
    capture_output=True,
)
# Jupyter searches JUPYTER_PATH first; set before any test imports jupyter_client paths.
os.environ["JUPYTER_PATH"] = str(PREFIX / "share" / "jupyter")


@pytest.fixture(scope="session")
def kernelspec_dir() -> Path:
    return PREFIX / "share" / "jupyter" / "kernels" / "searchbook"


ES_PASSWORD = "nb-test-es-secret-7f3a"
TS_API_KEY = "nb-test-ts-secret-91bc"


@pytest.fixture(scope="session")
def sandbox():
    """Both sandbox engines on free loopback ports, with known secrets to scan outputs for."""
    import re
    import time

    proc = subprocess.Popen(
        ["node", str(REPO / "bin" / "searchbook.js"), "sandbox", "--es-port", "0", "--ts-port", "0",
         "--es-password", ES_PASSWORD, "--ts-api-key", TS_API_KEY],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Press Ctrl-C" in line:
            break
    text = "".join(lines)
    es = re.search(r"Elasticsearch\s+(http\S+)", text)
    ts = re.search(r"Typesense\s+(http\S+)", text)
    if not (es and ts):
        proc.kill()
        raise RuntimeError(f"the sandbox did not start:\n{text}")
    yield {"es": es.group(1), "ts": ts.group(1), "es_password": ES_PASSWORD, "ts_api_key": TS_API_KEY}
    proc.terminate()
    proc.wait(timeout=10)


_ROWS_OF = """
const { hitsPayloadRows, tablePayloadRows } = require(process.argv[1]);
let text = '';
process.stdin.on('data', (d) => (text += d)).on('end', () => {
  const payload = JSON.parse(text);
  const hits = payload.columns.some((c) => typeof c === 'object');
  process.stdout.write(JSON.stringify(hits ? hitsPayloadRows(payload) : tablePayloadRows(payload)));
});
"""


def with_rows(payload):
    """A hits or table payload with the rows its grid shows, rebuilt from the answer it keeps
    by searchbook's own code (render/answer-rows.ts), as the extension rebuilds them."""
    import json

    module = str(REPO / "dist" / "kernel" / "src" / "render" / "answer-rows.js")
    done = subprocess.run(["node", "-e", _ROWS_OF, module], input=json.dumps(payload), capture_output=True, text=True, check=True)
    return {**payload, "rows": json.loads(done.stdout)}
