"""Installs the searchbook kernelspec into a throwaway prefix and points Jupyter at it,
so the Python suites start the kernel exactly as Jupyter Server would."""
import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# Every temporary file of the session, and of every process it starts (kernels, Jupyter's
# connection files), goes in one folder of its own; what a test leaves there is named at the
# end and fails the session, and nothing of it outlives the session.
SESSION_TEMP = Path(tempfile.mkdtemp(prefix="searchbook-pytest-"))
os.environ["TMPDIR"] = str(SESSION_TEMP)
tempfile.tempdir = str(SESSION_TEMP)
atexit.register(shutil.rmtree, SESSION_TEMP, ignore_errors=True)
PREFIX = Path(tempfile.mkdtemp(prefix="searchbook-prefix-"))

subprocess.run(
    ["node", str(REPO / "bin" / "searchbook.js"), "install", "--prefix", str(PREFIX)],
    check=True,
    capture_output=True,
)
# Jupyter searches JUPYTER_PATH first; set before any test imports jupyter_client paths.
os.environ["JUPYTER_PATH"] = str(PREFIX / "share" / "jupyter")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """After the session's fixtures are torn down: only the kernelspec prefix and pytest's own
    tmp_path folders may be left in the session's temporary folder."""
    left = sorted(p.name for p in SESSION_TEMP.iterdir() if p != PREFIX and not p.name.startswith("pytest-of-"))
    shutil.rmtree(SESSION_TEMP, ignore_errors=True)
    if left:
        print(f"\nthe tests left {len(left)} temporary entries (removed now; each test must remove what it makes): {', '.join(left)}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def kernelspec_dir() -> Path:
    return PREFIX / "share" / "jupyter" / "kernels" / "searchbook"


ES_PASSWORD = "nb-test-es-secret-7f3a"
TS_API_KEY = "nb-test-ts-secret-91bc"


def start_until(args, last_line, seconds, **popen):
    """Starts a long-running command and returns it with what it printed up to `last_line`."""
    import time

    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen)
    lines = []
    deadline = time.monotonic() + seconds
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if last_line in line:
            break
    return proc, "".join(lines)


@pytest.fixture(scope="session")
def sandbox():
    """Both sandbox engines on free loopback ports, with known secrets to scan outputs for."""
    import re

    proc, text = start_until(
        ["node", str(REPO / "sandbox" / "bin" / "searchbook-sandbox.js"), "--es-port", "0", "--ts-port", "0",
         "--es-password", ES_PASSWORD, "--ts-api-key", TS_API_KEY],
        "Press Ctrl-C",
        60,
    )
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
    by searchbook's own code (contracts/answer-rows.ts), as the extension rebuilds them."""
    import json

    module = str(REPO / "dist" / "contracts" / "answer-rows.js")
    done = subprocess.run(["node", "-e", _ROWS_OF, module], input=json.dumps(payload), capture_output=True, text=True, check=True)
    return {**payload, "rows": json.loads(done.stdout)}


# Real Elasticsearch nodes (test/support/real-elasticsearch), for the examples that talk to
# Elasticsearch. Each is started on first use with the sandbox's full sample index, and
# stopped at the end of the session; without Java only this tier is skipped.
REAL_SAMPLE_PRODUCTS = 25000


@pytest.fixture(scope="session")
def real_elasticsearch():
    import re
    import shutil

    started = {}
    unavailable = {}

    def start(version, products=REAL_SAMPLE_PRODUCTS):
        """The node of this version, with the first `products` sample documents (its first caller's count)."""
        if os.environ.get("SEARCHBOOK_REAL_ES") == "0":
            pytest.skip("SEARCHBOOK_REAL_ES=0: the tests against real Elasticsearch nodes are skipped")
        if shutil.which("java") is None:
            pytest.skip("no java on PATH: the tests against real Elasticsearch nodes are skipped")
        if version in unavailable:
            pytest.skip(unavailable[version])
        if version in started:
            assert started[version]["products"] == products, f"the {version} node holds {started[version]['products']} sample documents"
            return started[version]["info"]
        # Up to 15 minutes: the first start may build the launchers from Maven Central. The
        # node also stops when this process ends without tearing down (its stdin closes).
        proc, text = start_until(
            ["node", str(REPO / "dist" / "test" / "support" / "real-elasticsearch" / "start-by-hand.js"), version,
             "--products", str(products), "--stop-when-stdin-closes", "--client-compiler-only"],
            "Ctrl-C stops",
            900,
            stdin=subprocess.PIPE,
        )
        url = re.search(r"is up after \S+ s at (http\S+)", text)
        password = re.search(r"password (\S+)", text)
        if not url:
            proc.kill()
            # Elasticsearch 9.x needs a JDK 21+ beside the default Java; without one only that node is skipped.
            skipped = re.search(r"(Elasticsearch \S+ is skipped: .*)", text)
            if skipped:
                unavailable[version] = skipped.group(1)
                pytest.skip(skipped.group(1))
            raise RuntimeError(f"the real Elasticsearch {version} node did not start:\n{text}")
        info = {"es": url.group(1), "es_password": password.group(1) if password else "unused-on-an-open-node"}
        started[version] = {"proc": proc, "info": info, "products": products}
        return info

    yield start
    for entry in started.values():
        entry["proc"].terminate()
    for entry in started.values():
        entry["proc"].wait(timeout=30)
