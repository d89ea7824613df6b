"""The wire under both REST clients: no answer read past a size limit, no token sent that a header cannot
carry, no secret in a message, and the kubernetes client's urllib3 pools held to what ``calls`` decides.

* Size limit: ``bounded_response`` lets no more than ``CallPolicy.answer_limit_bytes`` of an answer (status
  line, headers and body, with or without a length, chunked or not) through the socket, error answers
  included: a 150 MB answer is refused after the limit, never held whole in memory.
* Tokens: one that an HTTP header cannot carry (a line break in it) is refused before any request
  (``header_safe``): http.client would raise a ``ValueError`` quoting the whole header, token and all.
* Messages: ``scrub`` takes out the secrets a client holds, and anything shaped like one.
* urllib3 (``bound_pools``): the kubernetes client builds its pool manager from its configuration, with
  urllib3's default retries (three, each sleeping whatever ``Retry-After`` says, redirects followed) before
  anyone can set ``configuration.retries``.  Each request gets one attempt, no redirect and no
  decompression instead: the retries, their waits and their deadline are ``calls``'s alone.
"""

from __future__ import annotations

import http.client
import re
import socket
from collections.abc import Iterable
from typing import Any

from components.ops.calls import Watchdog

__all__ = ["AnswerTooLarge", "bound_pools", "bounded_response", "credentials", "header_safe", "scrub", "tokens"]

SECRET_SHAPES = re.compile(
    r"(?i)(bearer\s+|apikey[\"'=:\s]+|access_token[\"'=:\s]+|refresh_token[\"'=:\s]+)"
    r"[^\s\"'&,;}]+"
)
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")


class AnswerTooLarge(Exception):
    """An answer past the policy's ``answer_limit_bytes``: not read any further.  Deliberately neither an
    ``OSError`` nor an ``HTTPException``, which urllib3 and http.client would take for a connection failure."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the answer is larger than {limit} bytes: not read any further")


def header_safe(value: str) -> bool:
    """Whether ``value`` (a token) can travel in an HTTP header as it is: visible ASCII only.  A line break
    would make http.client raise a ``ValueError`` that quotes the whole header, the token with it."""
    return isinstance(value, str) and _HEADER_SAFE.fullmatch(value) is not None


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` without ``secrets`` or anything shaped like a credential (``Bearer ...``, ``apikey=...``)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return SECRET_SHAPES.sub(lambda m: f"{m.group(1)}[redacted]", text)


class _BoundedReader:
    """A response's socket file that lets at most ``limit`` bytes through, then raises ``AnswerTooLarge``.
    Every read asks the socket for no more than one byte past what is left, so that an answer announcing
    150 MB (or sending them without a length) costs the limit at most."""

    def __init__(self, raw: Any, limit: int) -> None:
        self._raw, self._limit, self._left = raw, limit, limit

    def _allowed(self, size: int | None) -> int:
        return self._left + 1 if size is None or size < 0 else min(size, self._left + 1)

    def _took(self, count: int) -> None:
        self._left -= count
        if self._left < 0:
            raise AnswerTooLarge(self._limit)

    def read(self, size: int | None = -1) -> bytes:
        data: bytes = self._raw.read(self._allowed(size))
        self._took(len(data))
        return data

    def read1(self, size: int = -1) -> bytes:
        data: bytes = self._raw.read1(self._allowed(size))
        self._took(len(data))
        return data

    def readline(self, size: int | None = -1) -> bytes:
        data: bytes = self._raw.readline(self._allowed(size))
        self._took(len(data))
        return data

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        count = self._raw.readinto(view[: self._allowed(len(view))]) or 0
        self._took(count)
        return count

    def __getattr__(self, name: str) -> Any:  # close, closed, peek, fileno...: as the socket file has them
        return getattr(self._raw, name)


def bounded_response(limit: int) -> type[http.client.HTTPResponse]:
    """An ``http.client.HTTPResponse`` (a connection's ``response_class``) that reads at most ``limit`` bytes."""

    class BoundedResponse(http.client.HTTPResponse):
        def __init__(self, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
            super().__init__(sock, *args, **kwargs)
            self.fp = _BoundedReader(self.fp, limit)  # type: ignore[assignment]

    return BoundedResponse


def tokens(configuration: Any) -> list[str]:
    """The tokens the client sends in its ``Authorization`` header (``Bearer <token>``)."""
    keys = getattr(configuration, "api_key", None) or {}
    return [str(value).removeprefix("Bearer ") for value in keys.values() if value]


def credentials(configuration: Any) -> list[str]:
    """Whatever the client authenticates with: never in a message."""
    password = getattr(configuration, "password", None)
    return tokens(configuration) + ([str(password)] if password else [])


def bound_pools(pool_manager: Any, watchdog: Watchdog, limit: int) -> None:
    """Every connection the client's urllib3 pools open registers its socket with ``watchdog`` and reads at
    most ``limit`` bytes of an answer; no request is retried, redirected or decompressed below ``_call``.
    The kubernetes client built the pool manager from its configuration already (``configuration.retries``
    set afterwards is never read): each request is given its own settings instead."""
    from urllib3.util.retry import Retry

    def watched(pool_cls: Any) -> Any:
        class Connection(pool_cls.ConnectionCls):  # type: ignore[misc]
            response_class = bounded_response(limit)

            def connect(self) -> None:
                super().connect()
                watchdog.register(self.sock)

        return type(pool_cls.__name__, (pool_cls,), {"ConnectionCls": Connection})

    pool_manager.pool_classes_by_scheme = {
        scheme: watched(cls) for scheme, cls in pool_manager.pool_classes_by_scheme.items()
    }
    pool_manager.clear()  # a pool built before holds the old classes
    no_retries = Retry(total=0, redirect=False, respect_retry_after_header=False)
    urlopen = pool_manager.urlopen

    def one_attempt(method: str, url: str, redirect: bool = True, **kw: Any) -> Any:
        return urlopen(method, url, redirect=False, **{**kw, "retries": no_retries, "decode_content": False})

    pool_manager.urlopen = one_attempt
