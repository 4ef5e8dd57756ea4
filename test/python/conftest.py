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
