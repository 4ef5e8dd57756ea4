"""The searchbook kernel run beside a Python kernel for the `%%searchbook` magics: started on
first use through jupyter_client with the searchbook kernelspec (the Node.js the wheel brings),
stopped when the Python kernel stops. Its outputs are shown in the Python notebook as they come."""
import atexit
import os
import threading

KERNEL_NAME = "searchbook"
# The kernel adds each grid's rows to its bundles (taken off before showing them).
ROWS_VARIABLE = "SEARCHBOOK_ROWS_AS_VALUES"
START_SECONDS = 60
# The side panel's comm, which also takes the row cap of notebook outputs (contracts/panel-protocol.ts).
PANEL_COMM = "searchbook.panel"
PANEL_PROTOCOL_VERSION = 4
# The execute_request metadata the kernel reads (ExecuteMetadata in kernel/src/protocol/requests.ts).
EXECUTE_METADATA = "searchbook"


class Reply:
    """What a cell ended with: its reply's status, and the error it raised, if any."""

    def __init__(self, status, ename="", evalue="", traceback=None):
        self.status = status
        self.ename = ename
        self.evalue = evalue
        self.traceback = traceback or []


class SearchbookKernel:
    """The searchbook kernel and the one client that speaks to it. JupyterLab sends the side
    panel's comm messages on a kernel subshell of their own, which ipykernel serves in another
    thread while a cell runs in the main one: both would read the client's sockets (which are
    not thread-safe), and each would drop the messages it found for the other. So one thread at a
    time speaks to the kernel: a panel request waits for the magic call in flight, and the
    next magic call for the panel request."""

    # How long stopping waits for a request in flight in another thread before it stops anyway.
    STOP_WAIT_SECONDS = 5

    def __init__(self):
        self.manager = None
        self.client = None
        self.comm_id = None
        self.speaking = threading.RLock()
        atexit.register(self.stop)

    def alive(self):
        if self.manager is None:
            return False
        # Asked on every magic call: the kernel's own process is polled where the manager started
        # one (its is_alive runs an event loop for the same poll, a third of a millisecond).
        process = getattr(self.manager.provisioner, "process", None) if self.manager.has_kernel else None
        if process is not None and hasattr(process, "poll"):
            return process.poll() is None
        return self.manager.is_alive()

    def start(self):
        with self.speaking:
            self._start()

    def _start(self):
        from jupyter_client.kernelspec import NoSuchKernel
        from jupyter_client.manager import KernelManager

        self._stop()
        manager = KernelManager(kernel_name=KERNEL_NAME)
        try:
            manager.kernel_spec
        except NoSuchKernel:
            raise RuntimeError(
                "The searchbook kernel is not installed where this Python looks for kernels: "
                "run `pip install jupyterlab-searchbook` in the environment this notebook's kernel runs in, then restart it."
            ) from None
        manager.start_kernel(env={**os.environ, ROWS_VARIABLE: "1"})
        client = manager.client()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=START_SECONDS)
        except BaseException:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
            raise
        # The kernel read its connection file as it started and the client holds its ports and
        # key: the file, which holds the key, does not wait in the temporary directory for a stop
        # that never comes when the Python kernel is killed outright.
        manager.cleanup_connection_file()
        self.manager, self.client = manager, client

    def stop(self):
        # At exit a panel request may still be waiting in another thread: stop all the same.
        held = self.speaking.acquire(timeout=self.STOP_WAIT_SECONDS)
        try:
            self._stop()
        finally:
            if held:
                self.speaking.release()

    def _stop(self):
        client, manager = self.client, self.manager
        self.client = self.manager = self.comm_id = None
        if client is not None:
            client.stop_channels()
        if manager is not None and manager.has_kernel:
            manager.shutdown_kernel(now=False)

    def panel_request(self, request):
        """One request of the kernel's `searchbook.panel` comm (the side panel's protocol), and its reply."""
        import uuid

        data = {"v": PANEL_PROTOCOL_VERSION, "requestId": uuid.uuid4().hex, **request}
        replies = []
        self.panel_exchange(data, replies.append)
        reply = replies[-1]
        if reply.get("type") == "error":
            raise RuntimeError(reply.get("message", "the searchbook kernel refused the request"))
        return reply

    def panel_exchange(self, data, on_message, start=False):
        """Sends one message of the side panel's protocol on the kernel's comm and passes
        `on_message` what the comm sends until the reply to it (messages of no request, such as a
        grid ended, on the way). `start`: the kernel is started first if it is not running."""
        with self.speaking:
            if start and not self.alive():
                self._start()
            self._panel_exchange(data, on_message)

    def _panel_exchange(self, data, on_message):
        from queue import Empty
        import uuid

        client = self.client
        if self.comm_id is None:
            self.comm_id = uuid.uuid4().hex
            client.shell_channel.send(client.session.msg("comm_open", {"comm_id": self.comm_id, "target_name": PANEL_COMM, "data": {}}))
        request_id = data.get("requestId")
        client.shell_channel.send(client.session.msg("comm_msg", {"comm_id": self.comm_id, "data": data}))
        for _ in range(START_SECONDS * 10):
            try:
                msg = client.iopub_channel.get_msg(timeout=0.1)
            except Empty:
                continue
            content = msg["content"]
            if msg["msg_type"] != "comm_msg" or content.get("comm_id") != self.comm_id:
                continue
            on_message(content["data"])
            if content["data"].get("requestId") == request_id:
                return
        on_message({"v": PANEL_PROTOCOL_VERSION, "requestId": request_id, "type": "error", "message": "The searchbook kernel did not answer in time."})

    def run(self, code, on_output, on_input, silent=False, allow_stdin=False, value_only=False, set_first=()):
        """Runs `code` after the `%set` lines `set_first` (in the same request: one refused, the
        code does not run); each iopub output of it goes to `on_output(msg_type, content, buffers)`, each
        input request to `on_input(prompt, password)`. A KeyboardInterrupt while it runs
        interrupts the kernel, waits for the cell to end, and is raised again. `value_only`:
        nothing of the outputs will be shown, so the kernel builds no text or HTML grids, and
        they are read once the reply has come (see _Reading)."""
        with self.speaking:
            return self._run(code, on_output, on_input, silent, allow_stdin, value_only, set_first)

    def _run(self, code, on_output, on_input, silent, allow_stdin, value_only, set_first):
        msg_id = self._execute(code, silent, allow_stdin, value_only, set_first)
        reading = _Reading(self.client, msg_id, value_only)
        interrupted = None
        while not reading.ended:
            # Ctrl-C lands wherever Python happens to be, most often in poll but not always:
            # wherever it lands, the kernel is asked to stop the cell and the loop reads on to its end.
            try:
                self._read_step(reading, on_output, on_input)
            except KeyboardInterrupt as stop:
                interrupted = stop
                self.manager.interrupt_kernel()
        reply = self.reply(msg_id) if reading.reply is None else _reply_of(reading.reply)
        if interrupted is not None:
            raise KeyboardInterrupt(reply.evalue or "The searchbook request was interrupted.")
        return reply

    def _read_step(self, reading, on_output, on_input):
        """Reads what the kernel sent for the cell within a step; `reading.ended` once the cell ended."""
        import time

        client, msg_id = self.client, reading.msg_id
        events = dict(reading.poller.poll(reading.step_ms))
        if not events and time.monotonic() - reading.checked >= 1:
            if not self.alive():
                raise RuntimeError("The searchbook kernel stopped while the cell ran; run the cell again to start a new one.")
            reading.checked = time.monotonic()
        if reading.stdin in events:
            request = client.stdin_channel.get_msg(timeout=0)
            if request["parent_header"].get("msg_id") == msg_id:
                content = request["content"]
                try:
                    client.input(on_input(content.get("prompt", ""), bool(content.get("password"))))
                except KeyboardInterrupt:
                    # The kernel waits for an answer before it can be interrupted.
                    client.input("")
                    raise
        # Waiting for the reply, iopub is read at each step, so it never holds more than a step's worth.
        waiting = reading.shell is not None
        if waiting and reading.shell in events:
            for msg in _ready(client.shell_channel):
                if msg["parent_header"].get("msg_id") == msg_id:
                    reading.replied(msg)
        if waiting or reading.iopub in events:
            for msg in _ready(client.iopub_channel):
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                kind = msg["msg_type"]
                if kind == "status":
                    if msg["content"].get("execution_state") == "idle":
                        reading.ended = True
                elif kind != "execute_input":
                    on_output(kind, msg["content"], msg.get("buffers") or [])

    def _execute(self, code, silent, allow_stdin, value_only, set_first):
        """Sends an execute_request as client.execute does, with the metadata the kernel reads."""
        client = self.client
        content = {
            "code": code,
            "silent": silent,
            "store_history": not silent,
            "user_expressions": {},
            "allow_stdin": allow_stdin,
            "stop_on_error": False,
        }
        # An answer comes as its JSON bytes in a buffer of the message (searchbook.answer reads it);
        # a search answer's bytes also come as soon as the kernel has them, parsed while it reads them.
        asked = {"valueOnly": bool(value_only), "answerAsBuffer": True, "answerEarly": True, "setFirst": list(set_first)}
        msg = client.session.msg("execute_request", content, metadata={EXECUTE_METADATA: asked})
        client.shell_channel.send(msg)
        return msg["header"]["msg_id"]

    def reply(self, msg_id):
        """The shell reply to `msg_id`."""
        while True:
            msg = self.client.shell_channel.get_msg(timeout=START_SECONDS)
            if msg["parent_header"].get("msg_id") == msg_id:
                return _reply_of(msg)


def _reply_of(msg):
    content = msg["content"]
    return Reply(content.get("status", "error"), content.get("ename", ""), content.get("evalue", ""), content.get("traceback"))


class _Reading:
    """How a cell's messages are waited for: its outputs as they come (iopub), its reply (shell)
    and prompts (stdin). A quiet cell's outputs are shown nowhere, but a search answer's bytes
    come on iopub before the kernel has read them, to be parsed meanwhile; so a quiet cell waits
    on both iopub and its reply, and reads iopub on to its end once the reply came."""

    def __init__(self, client, msg_id, quiet):
        import time

        import zmq

        self.msg_id = msg_id
        self.poller = zmq.Poller()
        self.iopub, self.stdin = client.iopub_channel.socket, client.stdin_channel.socket
        self.shell = client.shell_channel.socket if quiet else None
        self.poller.register(self.iopub, zmq.POLLIN)
        if quiet:
            self.poller.register(self.shell, zmq.POLLIN)
        self.poller.register(self.stdin, zmq.POLLIN)
        self.step_ms = 1000
        self.reply = None
        self.ended = False
        self.checked = time.monotonic()

    def replied(self, msg):
        """The reply came: iopub's last messages (idle) follow it, read as they come."""
        self.reply = msg
        self.poller.unregister(self.shell)
        self.shell = None


def _ready(channel):
    """The messages waiting on a channel (its get_msgs() waits for one more that may never come)."""
    from queue import Empty

    while True:
        try:
            yield channel.get_msg(timeout=0)
        except Empty:
            return
