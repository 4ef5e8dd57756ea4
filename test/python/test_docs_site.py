"""The guide in docs/ builds as a site with Sphinx and MyST without a single warning (-W): every
page in the table of contents, every cross-reference and heading anchor found, every picture
readable, every code block highlighted."""
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_docs_build_without_warnings(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
         str(REPO / "docs"), str(tmp_path / "html")],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    assert build.stderr == ""
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    # The version the site names is package.json's.
    version = json.loads((REPO / "package.json").read_text(encoding="utf-8"))["version"]
    assert f"searchbook {version}" in index
    for page in ["getting-started", "troubleshooting", "connecting", "changelog"]:
        assert (tmp_path / "html" / f"{page}.html").exists()
    # The changelog page is CHANGELOG.md itself.
    assert "Unreleased" in (tmp_path / "html" / "changelog.html").read_text(encoding="utf-8")
