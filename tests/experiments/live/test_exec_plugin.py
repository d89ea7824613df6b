"""Credentials the kubeconfig only names: a token an exec plugin prints is kept out of every message,
whatever the server echoes, and a plugin that hangs is killed at the deadline, not left running."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from experiments.cli.main import main
from experiments.live.kube import DeadlineReached, KubeError, connect, deadline_alarm
from tests.http_standin import JsonHandler, ServedStandIn
from tests.timing import hang_bound

EXEC_TOKEN = "exec-plugin-token-4f9a2c7e1b"


class EchoingHandler(JsonHandler):
    """A hostile API server: every answer is 401, its reason echoing the bearer token it was sent."""

    def do_GET(self) -> None:  # noqa: N802
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        self.send_response(401, f"Unauthorized token {token}")
        body = json.dumps({"kind": "Status", "message": f"token {token} is not valid", "code": 401}).encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET  # noqa: N815


def kubeconfig_with_plugin(tmp_path: Path, server: str, plugin: str) -> Path:
    script = tmp_path / "plugin.py"
    script.write_text(plugin)
    path = tmp_path / "kubeconfig"
    path.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "k", "cluster": {"server": server}}],
                "users": [
                    {
                        "name": "u",
                        "user": {
                            "exec": {
                                "apiVersion": "client.authentication.k8s.io/v1",
                                "command": sys.executable,
                                "args": [str(script)],
                                "interactiveMode": "Never",
                            }
                        },
                    }
                ],
                "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}],
            }
        )
    )
    return path


PRINTS_TOKEN = f"""import json
print(json.dumps({{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
                  "status": {{"token": "{EXEC_TOKEN}"}}}}))
"""


def test_an_exec_plugins_token_echoed_by_the_server_is_never_shown(tmp_path, capsys) -> None:
    with ServedStandIn(EchoingHandler) as server:
        path = kubeconfig_with_plugin(tmp_path, server.url, PRINTS_TOKEN)
        code = main(
            [
                "pull-results",
                "--from-cluster",
                "--kubeconfig",
                str(path),
                "--image",
                "quay.io/team/gpu-cluster:1.4.0",
                "--timeout",
                "20",
                "--store",
                str(tmp_path / "r.sqlite"),
            ]
        )
    err = capsys.readouterr().err
    assert code == 2 and "Unauthorized" in err and len(err.strip().splitlines()) == 1, err
    assert EXEC_TOKEN not in err and "***" in err


@pytest.mark.slow
def test_a_hanging_exec_plugin_is_killed_at_the_deadline(tmp_path) -> None:
    pid_file = tmp_path / "pid"
    hangs = f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(120)\n"
    path = kubeconfig_with_plugin(tmp_path, "http://127.0.0.1:9", hangs)
    start = time.monotonic()
    with pytest.raises((KubeError, DeadlineReached)), deadline_alarm(2.0):
        connect(path, None, timeout=2.0)
    assert time.monotonic() - start < hang_bound(2.0)  # the plugin sleeps 120 s: only the deadline ended it
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):  # reaped: no such process any more
        os.kill(pid, 0)
