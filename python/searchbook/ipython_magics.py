"""`%load_ext searchbook`: the `%%searchbook` cell magic and `%searchbook` line magic, which run
searchbook console cells (`%connect`, `%use`, requests with JSON bodies, `%export`, ...) in a
searchbook kernel beside the Python kernel and show its outputs as it shows them. The cell's
last answer is returned as an Answer (searchbook.answer) and kept under `--save NAME` / `-o NAME`."""
import getpass
import sys

from searchbook.answer import ROWS_MIME, Answer, is_answer
from searchbook.python_values import referenced, set_line
from searchbook.searchbook_kernel import SearchbookKernel

USAGE = "%%searchbook [--save NAME | -o NAME]  (then the searchbook cell), or %searchbook [--save NAME] <one searchbook line>"


class SearchbookError(Exception):
    """A searchbook cell that failed: `ename` and `evalue` as the searchbook kernel said them
    (the engine's root cause for a failed request; never a secret)."""

    def __init__(self, ename, evalue, traceback=None):
        super().__init__(f"{ename}: {evalue}")
        self.ename = ename
        self.evalue = evalue
        self.searchbook_traceback = list(traceback or [])

    def _render_traceback_(self):
        # IPython shows the searchbook kernel's own error text, not the frames of this module.
        return self.searchbook_traceback or [f"{self.ename}: {self.evalue}"]


class UsageError(ValueError):
    pass


def split_options(line):
    """`--save NAME` / `-o NAME` at the start of the line, and the rest of it."""
    words = line.strip().split(None, 2)
    if words and words[0] in ("--save", "-o"):
        if len(words) < 2 or not words[1].isidentifier():
            raise UsageError(f"{words[0]} takes a Python name to keep the answer under. Write {USAGE}")
        return words[1], (words[2] if len(words) > 2 else "")
    if words and words[0].startswith("-") and not words[0].startswith("--save="):
        raise UsageError(f"Unknown option {words[0]}. Write {USAGE}")
    if words and words[0].startswith("--save="):
        name = words[0][len("--save="):]
        if not name.isidentifier():
            raise UsageError(f"--save takes a Python name to keep the answer under. Write {USAGE}")
        return name, line.strip()[len(words[0]):].strip()
    return None, line.strip()


class Bridge:
    """One searchbook kernel per Python kernel, and what a magic cell does with it."""

    def __init__(self, shell):
        self.shell = shell
        self.kernel = SearchbookKernel()

    def run_cell(self, code, save=None):
        if not code.strip():
            return None
        lines = [set_line(name, self.shell.user_ns[name]) for name in referenced(code, self.shell.user_ns)]
        self.kernel.ensure_started()
        for line in lines:
            self._run(line, silent=True)
        answer = self._run(code, silent=False)
        if save:
            self.shell.user_ns[save] = answer
        return answer

    def _run(self, code, silent):
        from IPython.display import clear_output, publish_display_data

        last = []

        def on_output(kind, content):
            if kind == "stream":
                (sys.stderr if content.get("name") == "stderr" else sys.stdout).write(content.get("text", ""))
            elif kind in ("display_data", "update_display_data", "execute_result"):
                data = dict(content.get("data", {}))
                data.pop(ROWS_MIME, None)
                transient = content.get("transient") or {}
                publish_display_data(data, content.get("metadata") or {}, transient=transient, update=kind == "update_display_data")
                if is_answer(content.get("data", {})):
                    last[:] = [Answer(content["data"])]
            elif kind == "clear_output":
                clear_output(wait=bool(content.get("wait")))

        reply = self.kernel.run(code, on_output, ask, silent=silent, allow_stdin=self._can_ask())
        if reply.status != "ok":
            raise SearchbookError(reply.ename or "SearchbookError", reply.evalue, reply.traceback)
        return last[0] if last else None

    def _can_ask(self):
        kernel = getattr(self.shell, "kernel", None)
        return bool(getattr(kernel, "_allow_stdin", False))

    def stop(self):
        self.kernel.stop()


def ask(prompt, password):
    # Looked up when asked: ipykernel routes getpass.getpass and input to the notebook's prompt.
    import builtins

    return getpass.getpass(prompt) if password else builtins.input(prompt)


_bridges = {}


def load(ipython):
    from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand

    if id(ipython) in _bridges:
        return
    bridge = Bridge(ipython)
    _bridges[id(ipython)] = bridge

    @magics_class
    class SearchbookMagics(Magics):
        # `${name}` is searchbook's reference, sent as JSON; IPython's `$name` / `{expr}` expansion would paste text.
        @no_var_expand
        @line_cell_magic
        def searchbook(self, line, cell=None):
            try:
                save, rest = split_options(line)
            except UsageError as err:
                raise SearchbookError("UsageError", str(err)) from None
            if cell is None:
                return bridge.run_cell(rest, save)
            if rest:
                raise SearchbookError("UsageError", f"The %%searchbook line takes only --save NAME / -o NAME; put {rest!r} on the lines below it. Write {USAGE}")
            return bridge.run_cell(cell, save)

    ipython.register_magics(SearchbookMagics)


def unload(ipython):
    bridge = _bridges.pop(id(ipython), None)
    if bridge is not None:
        bridge.stop()
