"""The credentials a kubeconfig holds, collected before the ``kubernetes`` client reads it, so that
``kube.Kube.redact`` can keep every one of them out of a message: tokens (and token files),
passwords, client keys and certificates, auth-provider and exec settings, and the user information
of a server URL, each also in the forms a message could show it (stripped, URL-decoded, base64-decoded
lines). A YAML alias is walked once, so a "billion laughs" kubeconfig costs its size, not its paths.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import yaml

from experiments.base.shapes import as_dict, as_list

__all__ = ["kubeconfig_paths", "kubeconfig_secrets", "server_without_credentials"]


def _secret_forms(value: str) -> set[str]:
    forms = {value, value.strip(), unquote(value)}
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        decoded = ""
    forms |= {line.strip() for line in [*value.splitlines(), *decoded.splitlines()] if len(line.strip()) >= 8}
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
                for part in (parts.username, parts.password, parts.netloc.rpartition("@")[0], parts.query,
                             parts.fragment, *parts.query.split("&")):
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
