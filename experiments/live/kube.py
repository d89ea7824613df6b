"""Reaching a cluster through the official ``kubernetes`` client, for the commands that act on a
deployed stack (``run``, ``approve-csrs``); the one place that talks to an API server.

* **Bounded.** Every request carries a connect and a read timeout, no request is retried behind
  the caller's back, bodies are read in chunks against the command's deadline and a size cap, and
  ``deadline_alarm`` stops a server that trickles bytes: ``--timeout`` bounds the whole command.
* **Quiet about credentials.** The kubeconfig's credentials (tokens, passwords, client keys,
  auth-provider and exec secrets, the user and password of a server URL) are collected before the
  client sees them; every message that leaves here has them replaced by ``***``, and the server is
  shown without its user information. A token's surrounding whitespace (a trailing newline pasted
  into the file) is dropped, as the token file reader of client-go does.
* **One line per failure**, naming the server: ``KubeError`` (exit 2).
"""

from __future__ import annotations

import json
import math
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import IO, Any

from kubernetes import client, config
from kubernetes.client.exceptions import ApiException
from kubernetes.config import exec_provider

from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.live.kube_secrets import (
    ReapedPopen,
    kubeconfig_paths,
    kubeconfig_secrets,
    live_secrets,
    server_without_credentials,
)

__all__ = ["CONNECT_TIMEOUT", "READ_TIMEOUT", "DeadlineReached", "Kube", "KubeError", "connect", "deadline_alarm"]

setattr(exec_provider, "subprocess", SimpleNamespace(Popen=ReapedPopen, PIPE=subprocess.PIPE))  # noqa: B010
"""The client runs exec plugins through ``subprocess.Popen`` with no timeout
(``kubernetes/config/exec_provider.py``): ours bounds and reaps them."""

CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 30.0
MAX_BODY = 256 * 1024 * 1024
"""The largest answer read into memory (a list of every CSR of a big cluster is a few MB)."""
_CHUNK = 64 * 1024


class KubeError(InputError):
    """The cluster could not be reached or answered badly: one line, credentials redacted."""


class DeadlineReached(BaseException):  # noqa: N818 - not an error of the code: the clock ran out
    """``--timeout`` passed while the cluster still had not answered (raised by ``deadline_alarm``;
    a ``BaseException`` so that no library's ``except Exception`` swallows it)."""


ALARM_GRACE = 1.0
"""The alarm rings this long after ``--timeout``: the requests' own bounds end a command first, with
a better message; the alarm catches a server that trickles an answer byte by byte."""


@contextmanager
def deadline_alarm(seconds: float) -> Iterator[None]:
    """Raise ``DeadlineReached`` in the main thread once ``seconds`` (+ ``ALARM_GRACE``) have
    passed, whatever it is waiting for (elsewhere only the per-request timeouts hold)."""
    if threading.current_thread() is not threading.main_thread() or not math.isfinite(seconds):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise DeadlineReached

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds + ALARM_GRACE)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Kube:
    """An API client with the command's deadline; every call goes through ``call`` or ``read``."""

    def __init__(self, api: Any, server: str, secrets: frozenset[str], deadline: float) -> None:
        self.api = api
        self.server = server
        self.secrets = secrets
        self.deadline = deadline
        """``time.monotonic()`` after which no request is made."""

    def redact(self, text: object) -> str:
        value = str(text)
        secrets = self.secrets | live_secrets(getattr(self.api, "configuration", None))
        for secret in sorted(secrets, key=len, reverse=True):
            value = value.replace(secret, "***")
        return terminal_text(value)

    def fresh(self, seconds: float) -> Kube:
        """A client of the same cluster and credentials on new connections (none of this one's pool,
        where a half-read answer may sit), whose requests end ``seconds`` from now."""
        api = client.ApiClient(self.api.configuration)
        return Kube(api, self.server, self.secrets, time.monotonic() + seconds)

    def close(self) -> None:
        try:
            self.api.close()
        except Exception:  # noqa: S110 - closing a pool whose sockets may be gone already
            pass

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def _timeout(self, what: str) -> tuple[float, float]:
        left = self.remaining()
        if left <= 0:
            raise KubeError(f"{self.server}: --timeout reached before {what}")
        return min(CONNECT_TIMEOUT, left), min(READ_TIMEOUT, left)

    def call(self, method: Callable[..., Any], *args: Any, what: str, **kwargs: Any) -> Any:
        """``method(*args, **kwargs)`` with timeouts; ``ApiException`` passes through (callers know
        which statuses they expect), every other failure becomes one ``KubeError`` line."""
        timeout = self._timeout(what)
        try:
            return method(*args, _request_timeout=timeout, **kwargs)
        except ApiException:
            raise
        except Exception as error:  # urllib3's connection and timeout errors, a garbled answer
            raise KubeError(f"{self.server}: {what}: {self.redact(_reason(error))}") from None

    def _body(self, response: Any, what: str, sink: IO[bytes] | None, limit: int) -> bytes:
        chunks, size, whole = [], 0, False
        try:
            while True:
                if self.remaining() <= 0:
                    raise KubeError(f"{self.server}: --timeout reached while reading {what}")
                chunk = response.read1(_CHUNK) if hasattr(response, "read1") else response.read(_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    raise KubeError(f"{self.server}: {what}: the answer exceeds {limit // (1024 * 1024)} MiB")
                if sink is None:
                    chunks.append(chunk)
                else:
                    sink.write(chunk)
            whole = True
        except KubeError:
            raise
        except Exception as error:
            raise KubeError(f"{self.server}: reading {what}: {self.redact(_reason(error))}") from None
        finally:
            if whole:
                response.release_conn()
            else:  # never back to the pool with the rest of an answer unread on it
                response.close()
        return b"".join(chunks)

    def read(
        self,
        method: Callable[..., Any],
        *args: Any,
        what: str,
        sink: IO[bytes] | None = None,
        limit: int = MAX_BODY,
        **kwargs: Any,
    ) -> bytes:
        """The raw answer of ``method``, read in chunks against the deadline (into ``sink`` if given)."""
        response = self.call(method, *args, what=what, _preload_content=False, **kwargs)
        return self._body(response, what, sink, limit)

    def read_json(self, method: Callable[..., Any], *args: Any, what: str, **kwargs: Any) -> Any:
        data = self.read(method, *args, what=what, **kwargs)
        try:
            return json.loads(data)
        except (ValueError, RecursionError):
            raise KubeError(f"{self.server}: {what}: the answer is not JSON") from None

    def items(self, method: Callable[..., Any], *args: Any, what: str, **kwargs: Any) -> list[dict[str, Any]]:
        """The ``items`` of a list answer, each a JSON object (anything else is refused)."""
        document = self.read_json(method, *args, what=what, **kwargs)
        items = document.get("items") if isinstance(document, dict) else None
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise KubeError(f"{self.server}: {what}: the answer is not a list of objects")
        return items

    def api_error(self, error: Any, what: str) -> str:
        """One line for an ``ApiException``: status and reason only (its body is the server's)."""
        return f"{self.server}: {error.status} {self.redact(error.reason or '')} {what}".replace("  ", " ")


def _reason(error: BaseException) -> str:
    reason = getattr(error, "reason", None) or error
    kind = type(reason).__name__
    if "Timeout" in kind or "timed out" in str(reason):
        return "no answer in time (connect or read timeout; --timeout bounds every request)"
    lines = str(reason).splitlines()
    return lines[0] if lines else type(error).__name__


def _strip_token(configuration: Any) -> None:
    """Keep the bearer token free of surrounding whitespace, also after each refresh of it."""
    hook = configuration.refresh_api_key_hook

    def strip(config: Any) -> None:
        if hook is not None:
            hook(config)  # the client's hook reloads the token and puts itself back as the hook
            config.refresh_api_key_hook = strip
        for key, value in list(config.api_key.items()):
            if isinstance(value, str):
                config.api_key[key] = value.strip()

    strip(configuration)
    configuration.refresh_api_key_hook = strip


def connect(kubeconfig: Path | None, context: str | None, timeout: float) -> Kube:
    """A client for ``kubeconfig`` (else ``KUBECONFIG`` or ``~/.kube/config``) and ``context``,
    checked by asking the server its version; its requests end ``timeout`` seconds from now."""
    deadline = time.monotonic() + timeout
    where = f"--kubeconfig {kubeconfig}" if kubeconfig else "the ambient kubeconfig"
    for path in kubeconfig_paths(kubeconfig):  # a FIFO or device would block the client's reader
        if (path.exists() or kubeconfig is not None) and not path.is_file():
            raise KubeError(f"{where}: {path} is not a regular file")
    secrets = kubeconfig_secrets(kubeconfig)
    configuration = client.Configuration()
    ReapedPopen.deadline = deadline  # an exec plugin (at load, and at each token refresh) ends by then
    try:
        config.load_kube_config(  # type: ignore[no-untyped-call] # the kubernetes client ships no types
            config_file=str(kubeconfig) if kubeconfig else None,
            context=context,
            client_configuration=configuration,
            persist_config=False,
        )
    except Exception as error:  # ConfigException, OSError, YAML and type errors of a malformed file
        secrets |= live_secrets(configuration)
        message = Kube(None, where, secrets, deadline).redact(_reason(error))
        raise KubeError(f"{where}: cannot load a cluster from it ({message})") from None
    configuration.retries = 0  # a retry would multiply every timeout
    _strip_token(configuration)
    server = terminal_text(server_without_credentials(str(configuration.host)))
    kube = Kube(
        client.ApiClient(configuration),
        server + (f" (context {terminal_text(context)})" if context else ""),
        secrets,
        deadline,
    )
    try:
        kube.read(client.VersionApi(kube.api).get_code, what="asking its version")
    except KubeError as error:
        raise KubeError(f"cannot reach the cluster at {error}") from None
    except Exception as error:  # an ApiException: the server answered, but not as an API server
        raise KubeError(f"cannot reach the cluster at {kube.server}: {kube.redact(_reason(error))}") from None
    return kube
