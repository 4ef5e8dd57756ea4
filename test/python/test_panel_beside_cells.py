"""The side panel's comm on a Python kernel while magic cells run: JupyterLab 4.6 sends comm
messages on a kernel subshell of their own, so ipykernel serves them in another thread while
the notebook's cell runs in the main one. Both go to the one searchbook kernel the magics
started; each must get its own answers, every time, and neither may wait for ever."""
import json
import threading
import time
import uuid
from queue import Empty

import pytest
from jupyter_client.session import Session

from test_ipython_magics import connect_line, engine, engines, execute, python_finds_searchbook, python_kernel  # noqa: F401

PANEL_COMM = "searchbook.panel"
PANEL_PROTOCOL_VERSION = 4


def create_subshell(client):
    """A kernel subshell (its id), asked for on the control channel as JupyterLab does."""
    request = client.session.msg("create_subshell_request", {})
    client.control_channel.send(request)
    for _ in range(100):
        reply = client.control_channel.get_msg(timeout=30)
        if reply["parent_header"].get("msg_id") == request["header"]["msg_id"]:
            assert reply["content"]["status"] == "ok", reply["content"]
            return reply["content"]["subshell_id"]
    raise AssertionError("no create_subshell_reply")


class PanelOnSubshell:
    """The panel's comm, opened and spoken on a subshell by a client of its own (its own session,
    so the kernel's replies find it); its replies are read from iopub by a thread of their own
    while the test's main thread runs cells on the other client."""

    def __init__(self, client):
        self.client = client
        self.subshell_id = create_subshell(client)
        self.comm_id = uuid.uuid4().hex
        self.replies = {}
        self.arrived = threading.Condition()
        self.stopped = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self._send("comm_open", {"comm_id": self.comm_id, "target_name": PANEL_COMM, "data": {}})

    def _send(self, kind, content):
        msg = self.client.session.msg(kind, content)
        msg["header"]["subshell_id"] = self.subshell_id
        self.client.shell_channel.send(msg)

    def _read(self):
        # Bounded by the test: stopped at its end, each wait a tenth of a second.
        while not self.stopped.is_set():
            try:
                msg = self.client.iopub_channel.get_msg(timeout=0.1)
            except Empty:
                continue
            content = msg["content"]
            if msg["msg_type"] == "comm_msg" and content.get("comm_id") == self.comm_id:
                with self.arrived:
                    self.replies[content["data"].get("requestId")] = content["data"]
                    self.arrived.notify_all()

    def ask(self, request, seconds=30):
        request_id = uuid.uuid4().hex
        self._send("comm_msg", {"comm_id": self.comm_id, "data": {"v": PANEL_PROTOCOL_VERSION, "requestId": request_id, **request}})
        deadline = time.monotonic() + seconds
        with self.arrived:
            while request_id not in self.replies and time.monotonic() < deadline:
                self.arrived.wait(0.1)
            return self.replies.get(request_id)

    def close(self):
        self.stopped.set()
        self.reader.join(5)


@engines("sandbox")
def test_panel_requests_on_a_subshell_and_magic_cells_each_get_their_own_answers(engine, python_kernel):
    manager, client, _ = python_kernel
    assert execute(client, "%load_ext searchbook")[0]["status"] == "ok"
    assert execute(client, f"%%searchbook -q\n{connect_line(engine)} name=es")[0]["status"] == "ok"
    # The panel's own client of the same kernel, as JupyterLab's panel and notebook share it.
    panel_client = manager.client(session=Session(key=manager.session.key, signature_scheme=manager.session.signature_scheme))
    panel_client.start_channels()
    panel_client.wait_for_ready(timeout=60)
    panel = PanelOnSubshell(panel_client)
    try:
        # Warm: the subshell's comm is open and answers.
        first = panel.ask({"type": "connections"})
        assert first is not None and first["type"] == "connections", first
        asked = []

        def keep_asking():
            # Bounded: 40 requests while the cell below runs its searches.
            for _ in range(40):
                asked.append(panel.ask({"type": "connections"}))

        asking = threading.Thread(target=keep_asking)
        asking.start()
        reply, outputs = execute(
            client,
            "import json\n"
            "totals = []\n"
            "for size in range(1, 31):\n"
            "    a = %searchbook -q GET /products/_search?size=${size}\n"
            "    totals.append(len(a.rows))\n"
            "print(json.dumps(totals))",
        )
        asking.join(120)
        answers = [a for a in asked if a is not None and a.get("type") == "connections"]
        assert reply["status"] == "ok", reply
        printed = "".join(o["content"]["text"] for o in outputs if o["msg_type"] == "stream")
        # Every search answered its own cell, with its own size.
        assert json.loads(printed) == list(range(1, 31))
        # Every panel request was answered, with its own reply, none after a minute's wait.
        assert len(asked) == 40 and len(answers) == 40, [a for a in asked if a is None or a.get("type") != "connections"][:3]
        assert all(a["connections"][0]["name"] == "es" for a in answers)
    finally:
        panel.close()
        panel_client.stop_channels()
