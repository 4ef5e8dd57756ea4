"""Sphinx settings for searchbook's guide: the Markdown pages of docs/ read by MyST, as on GitHub."""

import json
from pathlib import Path

from pygments.lexers.shell import BashLexer

ROOT = Path(__file__).resolve().parent.parent

project = "searchbook"
# package.json holds the version; the guide and the changelog read it from there.
release = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["version"]
version = release

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
# Links such as [profiles](connecting.md#saved-connections-profiles) name GitHub's heading anchors.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
# Blocks without a language are shown as written.
highlight_language = "none"
html_theme = "alabaster"
html_title = f"searchbook {release}"
html_static_path: list[str] = []


def setup(app):
    # Console cells: Pygments has no searchbook lexer; Bash reads comments, JSON strings, ${name}
    # variables and %magic lines without error tokens, as the kernel's language_info says.
    app.add_lexer("searchbook", BashLexer)
