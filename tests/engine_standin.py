"""The Pulumi engine's side of a program run, over real gRPC, for tests: a resource monitor and an engine served on
127.0.0.1 with the SDK's generated protos (``pulumi.runtime.proto``), and the program started as the Python language
host starts it (``tests/language_host_exec.py``: a process of its own, ``PULUMI_CONFIG`` and
``PULUMI_CONFIG_SECRET_KEYS`` in its environment, the monitor's and engine's addresses as arguments).

The monitor answers as the offline engine does (``experiments.offline.engine.IbmCloudMocks``, unknowns on in a
preview, as ``pulumi preview`` has them) and records every registration; the engine keeps what the program logs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import empty_pb2
from pulumi.runtime.proto import engine_pb2, engine_pb2_grpc, resource_pb2, resource_pb2_grpc

from experiments.offline.engine import ORGANIZATION, IbmCloudMocks, RecordedResource, RecordingMonitor
from experiments.offline.simulated_cluster import SimulatedCluster

__all__ = ["EXEC", "LanguageHostRun", "run_as_the_language_host"]

EXEC = Path(__file__).resolve().parent / "language_host_exec.py"
"""What the language host runs the program with (``pulumi-language-python-exec`` in the CLI's distribution)."""


class _Monitor(RecordingMonitor):
    """URNs as the engine makes them: the parent's whole type chain, and no ``Stack$`` for the stack's children."""

    def __init__(self, mocks: IbmCloudMocks, sink: list[RecordedResource], project: str, stack: str) -> None:
        super().__init__(mocks, sink)
        self.project, self.stack = project, stack

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        chain = parent.split("::")[2] if parent else ""
        if chain and chain != "pulumi:pulumi:Stack":
            type_ = f"{chain}${type_}"
        return f"urn:pulumi:{self.stack}::{self.project}::{type_}::{name}"


class _MonitorServicer(resource_pb2_grpc.ResourceMonitorServicer):
    def __init__(self, monitor: _Monitor) -> None:
        self.monitor = monitor
        self.lock = threading.Lock()  # the mocks' state (recorded resources, registrations) is not shared safely

    def SupportsFeature(self, request: Any, context: Any) -> Any:  # noqa: N802 - gRPC method names
        # Output values off, as the SDK's mock monitor has them: inputs arrive as plain values.
        return resource_pb2.SupportsFeatureResponse(hasSupport=request.id != "outputValues")

    def GetDeploymentInfo(self, request: Any, context: Any) -> Any:  # noqa: N802
        return self.monitor.GetDeploymentInfo(request)

    def RegisterPackage(self, request: Any, context: Any) -> Any:  # noqa: N802
        return resource_pb2.RegisterPackageResponse(ref=f"{request.name}-{request.version}")

    def RegisterResource(self, request: Any, context: Any) -> Any:  # noqa: N802
        with self.lock:
            return self.monitor.RegisterResource(request)

    def ReadResource(self, request: Any, context: Any) -> Any:  # noqa: N802
        with self.lock:
            return self.monitor.ReadResource(request)

    def Invoke(self, request: Any, context: Any) -> Any:  # noqa: N802
        with self.lock:
            return self.monitor.Invoke(request)

    def RegisterResourceOutputs(self, request: Any, context: Any) -> Any:  # noqa: N802
        return empty_pb2.Empty()

    def SignalAndWaitForShutdown(self, request: Any, context: Any) -> Any:  # noqa: N802
        return empty_pb2.Empty()


class _EngineServicer(engine_pb2_grpc.EngineServicer):
    def __init__(self, logs: list[tuple[str, str]]) -> None:
        self.logs = logs
        self.root = ""

    def Log(self, request: Any, context: Any) -> Any:  # noqa: N802
        self.logs.append((engine_pb2.LogSeverity.Name(request.severity), request.message))
        return empty_pb2.Empty()

    def GetRootResource(self, request: Any, context: Any) -> Any:  # noqa: N802
        return engine_pb2.GetRootResourceResponse(urn=self.root)

    def SetRootResource(self, request: Any, context: Any) -> Any:  # noqa: N802
        self.root = request.urn
        return engine_pb2.SetRootResourceResponse()


@dataclass
class LanguageHostRun:
    returncode: int
    resources: list[RecordedResource] = field(default_factory=list)
    logs: list[tuple[str, str]] = field(default_factory=list)
    """``(severity, message)`` of every ``pulumi.log`` call (and the runner's report of a failed program)."""
    output: str = ""
    """The program's stdout and stderr (the language host forwards them to the CLI)."""

    def errors(self) -> list[str]:
        return [message for severity, message in self.logs if severity == "ERROR"]


def run_as_the_language_host(
    root: Path,
    *,
    project: str,
    stack: str,
    config: dict[str, str],
    secret_keys: list[str],
    cluster: SimulatedCluster | None,
    dry_run: bool = True,
    timeout_s: float = 60.0,
) -> LanguageHostRun:
    """Run the program in ``root`` (its ``__main__.py``) as ``pulumi preview`` (``dry_run``) or ``up`` would."""
    run = LanguageHostRun(returncode=-1)
    mocks = IbmCloudMocks(cluster, None, f"{ORGANIZATION}/{project}/{stack}", unknowns=dry_run)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    resource_pb2_grpc.add_ResourceMonitorServicer_to_server(
        _MonitorServicer(_Monitor(mocks, run.resources, project, stack)), server
    )
    engine_pb2_grpc.add_EngineServicer_to_server(_EngineServicer(run.logs), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        address = f"127.0.0.1:{port}"
        # As the language host's Run builds it (sdk/python/cmd/pulumi-language-python/main.go, constructArguments).
        arguments = ["--monitor", address, "--engine", address, "--project", project, "--root_directory", str(root)]
        arguments += ["--stack", stack, "--pwd", str(root), "--dry_run", "true" if dry_run else "false"]
        arguments += ["--parallel", "16", "--organization", ORGANIZATION, "."]
        environment = {
            **{k: v for k, v in os.environ.items() if not k.startswith("PULUMI_")},
            "PULUMI_CONFIG": json.dumps(config),
            "PULUMI_CONFIG_SECRET_KEYS": json.dumps(secret_keys),
        }
        finished = subprocess.run(
            [sys.executable, "-u", str(EXEC), *arguments],
            env=environment,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    finally:
        server.stop(None)
    run.returncode, run.output = finished.returncode, finished.stdout + finished.stderr
    run.resources.sort(key=lambda r: r.urn)
    return run
