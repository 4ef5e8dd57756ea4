"""Configuration of the JupyterLab that a jest worker's browser suites share.

Each suite's kernels start with that suite's variables (the secrets its notebooks name as
${env:...}), as a JupyterLab started for that suite alone with them would give: the variables are
read from $SEARCHBOOK_TEST_SUITE_ENV_DIR/<the notebook's top folder>.json, written by the suite.
"""

import json
import os
from pathlib import PurePosixPath, Path

from jupyter_server.services.sessions.sessionmanager import SessionManager


class SuiteEnvSessionManager(SessionManager):
    def get_kernel_env(self, path, name=None):
        env = super().get_kernel_env(path, name)
        parts = PurePosixPath(path or "").parts
        if parts:
            file = Path(os.environ["SEARCHBOOK_TEST_SUITE_ENV_DIR"], f"{parts[0]}.json")
            if file.is_file():
                env.update(json.loads(file.read_text()))
        return env


c = get_config()  # noqa: F821 (given by Jupyter to its configuration files)
c.ServerApp.session_manager_class = SuiteEnvSessionManager
