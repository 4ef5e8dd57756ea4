"""`%load_ext searchbook`: the `%%searchbook` cell magic and `%searchbook` line magic, which run
searchbook console cells (`%connect`, `%use`, requests with JSON bodies, `%export`, ...) in a
searchbook kernel beside the Python kernel and show its outputs as it shows them. The cell's
last answer is returned as an Answer (searchbook.answer) and kept under `--save NAME` / `-o NAME`.
`--quiet` / `-q`, a trailing `;`, or `%config SearchbookMagic.quiet = True` show nothing."""
import getpass
import re
import sys
import warnings

from searchbook.answer import ANSWER_BYTES_MIME, ROWS_MIME, Answer, EarlyAnswer, RowsLeftOut, is_answer
from searchbook.magic_options import HELP, USAGE, UsageError, parse_options
from searchbook.python_values import NotJson, SecretFromPython, check_connect_values, referenced, set_line
from searchbook.searchbook_kernel import PANEL_COMM, SearchbookKernel


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


class Bridge:
    """One searchbook kernel per Python kernel, and what a magic cell does with it."""

    def __init__(self, shell):
        self.shell = shell
        self.kernel = SearchbookKernel()
        # The row cap the kernel keeps (None: its own), and the environment it was last given.
        self.max_rows = None
        self._told_rows = None
        self._told_env, self._told_raw = environment()

    def run_cell(self, code, save=None, quiet=False):
        if not code.strip():
            return None
        names = referenced(code, self.shell.user_ns)
        check_connect_values(code, names)
        lines = [set_line(name, self.shell.user_ns[name]) for name in names]
        if self.kernel.alive():
            self._pass_environment()
        else:
            self.kernel.start()
            (self._told_env, self._told_raw), self._told_rows = environment(), None
        self._pass_row_cap()
        answer = self._run(code, silent=False, quiet=quiet, values=lines)
        self._copy_set_variables(code)
        if answer is not None:
            answer._rerun = self._every_row_runner(code, lines)
            if not answer.complete:
                warnings.warn(answer.left_out_message(), RowsLeftOut, stacklevel=2)
        if save:
            self.shell.user_ns[save] = answer
        return answer

    def _copy_set_variables(self, code):
        """`%set name = ...` in a magic cell sets the Python variable `name` too (its JSON value)."""
        names = SET_LINE.findall(code)
        if not names:
            return
        values = {}

        def on_output(kind, content, _buffers):
            for row in (content.get("data", {}).get(ROWS_MIME) or {}).get("rows", []):
                values[row.get("name")] = row.get("value")

        self.kernel.run("%vars", on_output, ask, silent=False)
        for name in dict.fromkeys(names):
            if name in values:
                self.shell.user_ns[name] = values[name]

    def _pass_environment(self):
        """What Python's os.environ changed since the kernel last heard, for `${env:NAME}`."""
        raw = _undecoded_environment()
        if raw is not None and raw == self._told_raw:
            return
        now, self._told_raw = environment()
        changed = {k: v for k, v in now.items() if self._told_env.get(k) != v}
        changed.update({k: None for k in self._told_env if k not in now})
        if changed:
            self.kernel.panel_request({"type": "environment", "values": changed})
        self._told_env = now

    def _pass_row_cap(self):
        if self.max_rows != self._told_rows:
            self.kernel.panel_request({"type": "outputRows", "rows": self.max_rows})
            self._told_rows = self.max_rows

    def _every_row_runner(self, code, set_lines):
        """How an answer's request is run again with every row kept: its cell's last request, with
        the Python values it was sent with, quietly, under a row cap as large as the answer."""
        request = last_request(code)

        def rerun(answer):
            if request is None:
                raise ValueError("This answer's cell holds no request to run again: run it with a higher row cap, `%config SearchbookMagic.max_rows = N`.")
            before = self.max_rows
            self.max_rows = max(len(answer.rows) + answer.omitted_rows, before or 0)
            try:
                self._pass_row_cap()
                again = self._run(request, silent=False, quiet=True, values=set_lines)
            finally:
                self.max_rows = before
                self._pass_row_cap()
            said = lambda a: (a.info.get("connection"), a.info.get("method"), a.info.get("path"))  # noqa: E731
            if again is None or said(again) != said(answer):
                raise SearchbookError(
                    "NotTheSameRequest",
                    f"Running {answer.info.get('method')} {answer.info.get('path')} again on {answer.info.get('connection')} "
                    "did not give an answer of the same request (another connection is active now?): `%use` that connection and try again.",
                )
            if not again.complete:
                raise SearchbookError("RowsLeftOut", again.left_out_message())
            return again

        return rerun

    def _run(self, code, silent, quiet, values=()):
        """Runs `code` in the searchbook kernel after the `%set` lines of the Python values it
        names (`values`), sent in the same request: a refused one stops the code."""
        from IPython.display import clear_output, publish_display_data

        last = []
        # A search answer's bytes, sent before the kernel read them: parsed while it reads them.
        early = EarlyAnswer()

        def on_output(kind, content, buffers):
            if kind == "stream":
                if not quiet or content.get("name") == "stderr":
                    (sys.stderr if content.get("name") == "stderr" else sys.stdout).write(content.get("text", ""))
            elif kind in ("display_data", "update_display_data", "execute_result"):
                data = content.get("data", {})
                if ANSWER_BYTES_MIME in data:
                    early.read(data[ANSWER_BYTES_MIME], buffers)
                    return
                answer = Answer(data, buffers=buffers, early=early) if is_answer(data) else None
                if answer is not None:
                    last[:] = [answer]
                if quiet:
                    return
                # The answer's bytes go back into its payload, as the notebook keeps it.
                bundle = answer.bundle if answer is not None else data
                shown = {mime: value for mime, value in bundle.items() if mime != ROWS_MIME}
                transient = content.get("transient") or {}
                publish_display_data(shown, content.get("metadata") or {}, transient=transient, update=kind == "update_display_data")
            elif kind == "clear_output" and not quiet:
                clear_output(wait=bool(content.get("wait")))

        reply = self.kernel.run(code, on_output, ask, silent=silent, allow_stdin=self._can_ask(), value_only=quiet, set_first=values)
        self._raise_if_failed(reply)
        return last[0] if last else None

    def _raise_if_failed(self, reply):
        if reply.status != "ok":
            if reply.ename == "SecretInCell":
                from searchbook.history import secret_advice

                advice = secret_advice(self.shell)
                raise SearchbookError(reply.ename, reply.evalue + advice, [*reply.traceback, advice.strip()])
            raise SearchbookError(reply.ename or "SearchbookError", reply.evalue, reply.traceback)

    def _can_ask(self):
        kernel = getattr(self.shell, "kernel", None)
        return bool(getattr(kernel, "_allow_stdin", False))

    def serve_panel(self, comm, _open_msg=None):
        """The `searchbook.panel` comm of JupyterLab's side panel and cell menu, opened on this Python
        kernel: each message goes to the magics' searchbook kernel, and its answers come back, so
        the panel lists the magics' connections and Copy as curl / Python reads their cells."""

        def on_msg(msg):
            data = msg["content"]["data"]
            if isinstance(data.get("cell"), str):
                # Copy as curl / Python of a Python cell: the searchbook text of its magics.
                data = {**data, "cell": magic_text(data["cell"])}
            try:
                self.kernel.panel_exchange(data, comm.send, start=True)
            except Exception as err:  # the panel shows the message where the user looks
                comm.send({"v": data.get("v"), "requestId": data.get("requestId"), "type": "error", "message": str(err)})

        comm.on_msg(on_msg)

    def stop(self):
        self.kernel.stop()


def environment():
    """os.environ as it is now: (its names and values, decoded, and its undecoded copy or None).
    Read on every magic call: where os.environ keeps the bytes it decodes, a copy of them says
    at C speed whether anything changed, and the text is decoded only then."""
    import os

    return dict(os.environ), _undecoded_environment()


def _undecoded_environment():
    import os

    raw = getattr(os.environ, "_data", None)
    return dict(raw) if isinstance(raw, dict) else None


SET_LINE = re.compile(r"^[ \t]*%set[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*=", re.M)
METHODS = ("GET", "POST", "PUT", "DELETE", "HEAD", "PATCH")


def last_request(code):
    """The cell's last request (its method line to the end of the cell), or None."""
    lines = code.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].split(" ", 1)[0] in METHODS:
            return "\n".join(lines[i:])
    return None


def magic_text(source):
    """The searchbook text of a Python cell: a `%%searchbook` cell's body, or what each
    `%searchbook` line magic runs (`a = %searchbook -q GET /x` gives `GET /x`)."""
    lines = source.splitlines()
    if lines and lines[0].lstrip().startswith("%%searchbook"):
        return "\n".join(lines[1:])
    found = []
    for line in lines:
        at = line.find("%searchbook ")
        if at >= 0:
            try:
                found.append(parse_options(line[at + len("%searchbook ") :])[1].rstrip(";"))
            except UsageError:
                continue
    return "\n".join(found) if found else source


def ask(prompt, password):
    # Looked up when asked: ipykernel routes getpass.getpass and input to the notebook's prompt.
    import builtins

    return getpass.getpass(prompt) if password else builtins.input(prompt)


_bridges = {}


def load(ipython):
    from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand
    from traitlets import Bool, Int, observe

    if id(ipython) in _bridges:
        return
    bridge = Bridge(ipython)
    _bridges[id(ipython)] = bridge

    @magics_class
    class SearchbookMagic(Magics):
        """searchbook's magics; `%config SearchbookMagic` lists their settings."""

        quiet = Bool(False, help="Show nothing for each magic call (its value is the same); a call's --quiet or trailing ; does it once.").tag(config=True)
        max_rows = Int(
            None,
            allow_none=True,
            help="Rows of an answer kept in .rows and DataFrames (and shown in its grid); None: the kernel's own cap (SEARCHBOOK_MAX_ROWS, else 1,000).",
        ).tag(config=True)

        @observe("max_rows")
        def _max_rows_changed(self, change):
            if change["new"] is not None and not 1 <= change["new"] <= 1_000_000:
                raise ValueError("SearchbookMagic.max_rows takes 1 to 1,000,000 rows, or None for the kernel's own cap.")
            bridge.max_rows = change["new"]

        # `${name}` is searchbook's reference, sent as JSON; IPython's `$name` / `{expr}` expansion would paste text.
        @no_var_expand
        @line_cell_magic
        def searchbook(self, line, cell=None):
            try:
                options, rest = parse_options(line)
            except UsageError as err:
                raise SearchbookError("UsageError", str(err)) from None
            if options.help:
                print(HELP)
                return None
            code = rest if cell is None else cell
            if cell is not None and rest:
                raise SearchbookError("UsageError", f"The %%searchbook line takes only options; put {rest!r} on the lines below it. Write {USAGE}")
            # A trailing `;` silences a call, as it silences any IPython line.
            stripped = code.rstrip()
            hushed = stripped.endswith(";")
            if hushed:
                code = stripped[:-1]
            try:
                return bridge.run_cell(code, options.save, quiet=options.quiet or hushed or self.quiet)
            except NotJson as err:
                raise SearchbookError("NotJson", str(err)) from None
            except SecretFromPython as err:
                raise SearchbookError("SecretFromPython", str(err)) from None

        searchbook.__doc__ = HELP

    magics = SearchbookMagic(shell=ipython, config=ipython.config)
    ipython.register_magics(magics)
    # `%config SearchbookMagic.quiet = True`, as `%config SqlMagic...` for JupySQL.
    ipython.configurables.append(magics)
    comms = _comm_manager(ipython)
    if comms is not None:
        comms.register_target(PANEL_COMM, bridge.serve_panel)


def _comm_manager(ipython):
    """The kernel's comm manager (ipykernel), or None in a terminal IPython."""
    kernel = getattr(ipython, "kernel", None)
    manager = getattr(kernel, "comm_manager", None)
    if manager is None and kernel is not None:
        try:
            from comm import get_comm_manager

            manager = get_comm_manager()
        except ImportError:
            return None
    return manager


def unload(ipython):
    bridge = _bridges.pop(id(ipython), None)
    if bridge is None:
        return
    comms = _comm_manager(ipython)
    if comms is not None and PANEL_COMM in getattr(comms, "targets", {}):
        comms.unregister_target(PANEL_COMM, bridge.serve_panel)
    bridge.stop()
