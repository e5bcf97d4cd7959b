"""`make lab` serves JupyterLab on notebooks/, with token auth on.

Runs the real command a reader types (set-up included, a no-op when .venv is current) on a free
port with a random token, then stops JupyterLab by killing its process group.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 90.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    """Status and body of a GET (error statuses returned, not raised); no cookies kept."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", errors="replace")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop make and JupyterLab (one process group): TERM, then KILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 20.0), (signal.SIGKILL, 10.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    proc.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_lab_serves_jupyterlab_with_auth(tmp_path: Path) -> None:
    port = _free_port()
    token = secrets.token_hex(24)
    base = f"http://127.0.0.1:{port}"
    opts = f"--no-browser --port={port} --ServerApp.port_retries=0 --IdentityProvider.token={token}"
    log_path = tmp_path / "make-lab.log"
    # Run as a reader would, not as a sub-make of `make test` (no inherited jobserver flags).
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            ["make", "lab", f"LAB_OPTS={opts}"],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log_text() -> str:
        return log_path.read_text(encoding="utf-8", errors="replace")[-3000:]

    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        status, page = 0, ""
        while time.monotonic() < deadline:
            assert proc.poll() is None, f"make lab exited ({proc.returncode}):\n{log_text()}"
            try:
                status, page = _get(f"{base}/lab?token={token}")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                status = 0
            if status == 200:
                break
            time.sleep(0.25)
        waited = f"{START_TIMEOUT_S:.0f} s"
        assert status == 200, f"no JupyterLab on port {port} after {waited}:\n{log_text()}"

        assert "<title>JupyterLab</title>" in page
        assert '"appName": "JupyterLab"' in page

        # Auth stays on: the API refuses a request without the token, and serves one with it.
        refused, _ = _get(f"{base}/api/contents")
        assert refused == 403
        allowed, listing = _get(f"{base}/api/contents?token={token}")
        assert allowed == 200
        names = {item["name"] for item in json.loads(listing)["content"]}
        assert "sanitize.cfg" in names  # the server's root is notebooks/
    finally:
        _stop(proc)
