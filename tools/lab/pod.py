"""Become one emulated node, then run its pod's command: ``python3 tools/lab/pod.py SPEC.json``.

SPEC: ``namespace`` (under /run/netns), ``hostname``, ``hosts`` (a file bound over /etc/hosts),
``cpus``, ``cwd`` and ``argv``; the environment is the caller's. In order: join the node's network
namespace; take a UTS and a mount namespace of its own; mount a fresh sysfs (``/sys/class/net``
then lists this node's interfaces, as in a pod) and the hosts file; set the hostname (torch's c10d
rendezvous hosts its store only where the hostname is MASTER_ADDR); keep to the node's CPUs; exec.
Standard library only (ctypes for setns, unshare, mount): it runs on a bare GPU host.
"""

from __future__ import annotations

import ctypes
import json
import os
import socket
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWNET = 0x40000000
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise SystemExit(f"lab pod: error: {what}: {os.strerror(errno)}")


def become_node(spec: dict[str, object]) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(f"/run/netns/{spec['namespace']}", os.O_RDONLY)
    _check(libc.setns(fd, CLONE_NEWNET), f"setns {spec['namespace']}")
    os.close(fd)
    _check(libc.unshare(CLONE_NEWUTS | CLONE_NEWNS), "unshare UTS and mount namespaces")
    # Private first, so nothing mounted here shows up in the host's namespace.
    _check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make / private")
    _check(libc.umount2(b"/sys", MNT_DETACH), "unmount /sys")
    _check(libc.mount(b"sysfs", b"/sys", b"sysfs", 0, None), "mount this namespace's sysfs")
    hosts = str(spec["hosts"]).encode()
    _check(libc.mount(hosts, b"/etc/hosts", None, MS_BIND, None), "bind the hosts file")
    socket.sethostname(str(spec["hostname"]))
    cpus = spec.get("cpus")
    if isinstance(cpus, list) and cpus:
        os.sched_setaffinity(0, [int(c) for c in cpus])


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        spec = json.load(handle)
    become_node(spec)
    os.chdir(str(spec["cwd"]))
    command = [str(word) for word in spec["argv"]]
    os.execvp(command[0], command)
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv))
