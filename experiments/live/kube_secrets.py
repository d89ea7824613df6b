"""The credentials a kubeconfig holds, collected before the ``kubernetes`` client reads it, so that
``kube.Kube.redact`` can keep every one of them out of a message: tokens (and token files),
passwords, client keys and certificates, auth-provider and exec settings, and the user information
of a server URL, each also in the forms a message could show it (stripped, URL-decoded, base64-decoded
lines). A YAML alias is walked once, so a "billion laughs" kubeconfig costs its size, not its paths.

Credentials the kubeconfig only names (an exec plugin's or an auth provider's token) exist only once
the client has them: ``live_secrets`` reads them from the client's configuration at the moment a
message is made. An exec plugin runs as a child process; ``ReapedPopen`` gives it the command's
deadline and kills it when the deadline (or anything else) interrupts it, so none is left running.
"""

from __future__ import annotations

import base64
import binascii
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import yaml

from experiments.base.shapes import as_dict, as_list

__all__ = ["ReapedPopen", "kubeconfig_paths", "kubeconfig_secrets", "live_secrets", "server_without_credentials"]


def live_secrets(configuration: Any) -> set[str]:
    """The credentials the client holds now (bearer tokens from an exec plugin or auth provider,
    a basic-auth password), in the forms a message could show them."""
    found: set[str] = set()
    api_key = getattr(configuration, "api_key", None)
    values = list(api_key.values()) if isinstance(api_key, dict) else []
    values.append(getattr(configuration, "password", None))
    for value in values:
        if isinstance(value, str) and value.strip():
            found |= _secret_forms(value) | _secret_forms(value.strip().removeprefix("Bearer ").strip())
    return found


class ReapedPopen(subprocess.Popen):  # type: ignore[type-arg]
    """The ``Popen`` the client's exec plugin runs under: its wait is bounded by ``deadline``
    (``time.monotonic()``), and it is killed if that wait ends in anything but its exit."""

    deadline: float | None = None

    def communicate(self, input: Any = None, timeout: float | None = None) -> Any:  # noqa: A002 - Popen's name
        left = None if ReapedPopen.deadline is None else ReapedPopen.deadline - time.monotonic()
        if timeout is None and left is not None and left > 0:  # a past deadline is an earlier command's
            timeout = left
        try:
            return super().communicate(input, timeout)
        except BaseException:  # the deadline's alarm, TimeoutExpired, Ctrl-C: the plugin goes too
            self.kill()
            super().communicate()
            raise


def _secret_forms(value: str) -> set[str]:
    forms = {value, value.strip(), unquote(value)}
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        decoded = ""
    forms |= {line.strip() for line in [*value.splitlines(), *decoded.splitlines()] if len(line.strip()) >= 8}
    # As an error shows a value it refuses: http.client's "Invalid header value b'...'" prints the escaped bytes,
    # so a token holding a line break would otherwise show whole but for its first line.
    forms |= {
        form
        for whole in (value, value.strip())
        for form in (
            repr(whole)[1:-1],
            repr(whole.encode("utf-8", "replace"))[2:-1],
            repr(whole.encode("latin-1", "replace"))[2:-1],
        )
    }
    return {f for f in forms if len(f) >= 4}


def _strings(value: Any, seen: set[int] | None = None) -> Iterator[str]:
    """Every string in a YAML document, each shared node (a YAML alias) visited once."""
    seen = set() if seen is None else seen
    if isinstance(value, str):
        yield value
    elif isinstance(value, (dict, list)) and id(value) not in seen:
        seen.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            yield from _strings(item, seen)


def kubeconfig_paths(kubeconfig: Path | None) -> list[Path]:
    if kubeconfig is not None:
        return [kubeconfig]
    ambient = os.environ.get("KUBECONFIG", "")
    return [Path(p) for p in ambient.split(os.pathsep) if p] or [Path.home() / ".kube" / "config"]


def kubeconfig_secrets(kubeconfig: Path | None) -> frozenset[str]:
    """Every credential a kubeconfig holds, in the forms a message could show it."""
    found: set[str] = set()
    for path in kubeconfig_paths(kubeconfig):
        try:
            document = yaml.safe_load(path.read_text(errors="replace")) if path.is_file() else None
        except (OSError, yaml.YAMLError, RecursionError):
            continue
        for user in as_list(as_dict(document).get("users")):
            credentials = as_dict(user).get("user")
            for text in _strings(credentials):
                found |= _secret_forms(text)
            token_file = as_dict(credentials).get("tokenFile")
            if isinstance(token_file, str) and Path(token_file).is_file():
                try:
                    found |= _secret_forms(Path(token_file).read_text(errors="replace")[:65536])
                except OSError:
                    pass
        for cluster in as_list(as_dict(document).get("clusters")):
            server = as_dict(as_dict(cluster).get("cluster")).get("server")
            try:
                parts = urlsplit(server.strip()) if isinstance(server, str) else None
            except ValueError:
                parts = None
            if parts is not None:
                for part in (
                    parts.username,
                    parts.password,
                    parts.netloc.rpartition("@")[0],
                    parts.query,
                    parts.fragment,
                    *parts.query.split("&"),
                ):
                    if part:
                        found |= _secret_forms(part)
    return frozenset(found)


def server_without_credentials(host: str) -> str:
    """The server as shown in messages: scheme, host, port and path; no user information, query or
    fragment (a URL is a common place to paste a token)."""
    try:
        parts = urlsplit(host)
    except ValueError:
        return "(the kubeconfig's server)"
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2], query="", fragment=""))
