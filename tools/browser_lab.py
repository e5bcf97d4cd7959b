"""The browser check's JupyterLab: a headless server on a free local port, started and stopped
by the check (and by ``browser_table_check``)."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

LAB_START_TIMEOUT_S = 90.0
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
        "windowingMode": "none",
        "scrollPastEnd": False,
    },
}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Lab:
    """A headless JupyterLab on a free local port with a random token, in its own process group.
    Its notebook trust database is in memory, so every notebook opens untrusted, as after a
    fresh clone."""

    def __init__(self, root: Path, scratch: Path) -> None:
        self.root = root
        self.port = _free_port()
        self.token = secrets.token_hex(24)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = scratch / "lab.log"
        settings = scratch / "lab-settings"
        for name, values in LAB_SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")
        self.env = {
            **os.environ,
            "JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(scratch / "lab-workspaces"),
            "JUPYTER_CONFIG_DIR": str(scratch / "jupyter-config"),
            "JUPYTER_RUNTIME_DIR": str(scratch / "jupyter-runtime"),
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        """The JupyterLab command line."""
        cmd = [
            sys.executable, "-m", "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root}",
            f"--IdentityProvider.token={self.token}",
            "--NotebookNotary.db_file=:memory:",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]  # fmt: skip
        if os.geteuid() == 0:
            cmd.append("--allow-root")
        return cmd

    def start(self) -> None:
        """Start JupyterLab and wait until its API answers with our token."""
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                self.command(),
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + LAB_START_TIMEOUT_S
        status = f"{self.url}/api/status?token={self.token}"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with status {self.proc.returncode}")
            try:
                with urllib.request.urlopen(status, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"JupyterLab did not answer within {LAB_START_TIMEOUT_S:.0f} s")

    def log_tail(self, lines: int = 20) -> str:
        """The end of JupyterLab's log, for error messages."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """Stop JupyterLab (it shuts its kernels down), killing the group if it lingers."""
        if self.proc is None or self.proc.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue
