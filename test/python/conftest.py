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


# Real Elasticsearch nodes (test/support/real-elasticsearch), for the examples that talk to
# Elasticsearch. Each is started on first use with the sandbox's full sample index, and
# stopped at the end of the session; without Java only this tier is skipped.
REAL_SAMPLE_PRODUCTS = 25000


@pytest.fixture(scope="session")
def real_elasticsearch():
    import re
    import shutil
    import time

    started = {}

    def start(version):
        if os.environ.get("SEARCHBOOK_REAL_ES") == "0":
            pytest.skip("SEARCHBOOK_REAL_ES=0: the tests against real Elasticsearch nodes are skipped")
        if shutil.which("java") is None:
            pytest.skip("no java on PATH: the tests against real Elasticsearch nodes are skipped")
        if version in started:
            return started[version]["info"]
        proc = subprocess.Popen(
            ["node", str(REPO / "dist" / "test" / "support" / "real-elasticsearch" / "start-by-hand.js"), version,
             "--products", str(REAL_SAMPLE_PRODUCTS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        lines = []
        deadline = time.monotonic() + 900
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "Ctrl-C stops" in line:
                break
        text = "".join(lines)
        url = re.search(r"is up after \S+ s at (http\S+)", text)
        password = re.search(r"password (\S+)", text)
        if not url:
            proc.kill()
            raise RuntimeError(f"the real Elasticsearch {version} node did not start:\n{text}")
        info = {"es": url.group(1), "es_password": password.group(1) if password else "unused-on-an-open-node"}
        started[version] = {"proc": proc, "info": info}
        return info

    yield start
    for entry in started.values():
        entry["proc"].terminate()
    for entry in started.values():
        entry["proc"].wait(timeout=30)
