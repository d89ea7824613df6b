"""The executor issues exactly the plan's netlink calls, and tearing down removes what carries the lab's
prefix and nothing else: against a stand-in for pyroute2 that records (no root needed)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tools.lab import netns
from tools.lab.plan import make_plan, model_link

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lab"
PATHS = {"config": "/c", "workloads": "/w", "mapping": "/m", "node_root": "/n"}


class NetlinkError(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code, "No such file or directory")
        self.code = code


class Kernel:
    """Namespaces and links by name; every call recorded as (namespace, verb, what)."""

    def __init__(self, netem: bool) -> None:
        self.calls: list[tuple[str | None, str, str]] = []
        self.spaces: set[str] = set()
        self.links: dict[str | None, list[str]] = {None: ["lo", "eth0", "docker0"]}
        self.netem = netem

    def ipr(self, netns: str | None = None) -> Any:
        kernel = self

        class IPRoute:
            def __enter__(self) -> IPRoute:
                return self

            def __exit__(self, *exc: object) -> None:
                pass

            def close(self) -> None:
                pass

            def _names(self) -> list[str]:
                return kernel.links.setdefault(netns, ["lo"])

            def link_lookup(self, ifname: str) -> list[int]:
                names = self._names()
                return [names.index(ifname) + 1] if ifname in names else []

            def link(self, verb: str, **kw: Any) -> None:
                names = self._names()
                if verb == "add":
                    names.append(kw["ifname"])
                    if kw.get("peer"):
                        names.append(kw["peer"])
                    kernel.calls.append((netns, "add", f"{kw['kind']} {kw['ifname']}"))
                elif verb == "set" and "net_ns_fd" in kw:
                    name = names.pop(kw["index"] - 1)
                    kernel.links.setdefault(kw["net_ns_fd"], ["lo"]).append(name)
                    kernel.calls.append((netns, "move", f"{name} {kw['net_ns_fd']}"))
                elif verb == "set" and "ifname" in kw:
                    names[kw["index"] - 1] = kw["ifname"]
                elif verb == "del":
                    kernel.calls.append((netns, "del", names.pop(kw["index"] - 1)))

            def addr(self, verb: str, **kw: Any) -> None:
                kernel.calls.append(
                    (netns, "addr", f"{self._names()[kw['index'] - 1]} {kw['address']}/{kw['prefixlen']}")
                )

            def tc(self, verb: str, kind: str, index: int, **kw: Any) -> None:
                if kind == "netem" and not kernel.netem:
                    raise NetlinkError(2)
                where = self._names()[index - 1]
                kernel.calls.append((netns, "qdisc", f"{kind} {where} parent={kw.get('parent', 'root')}"))

            def get_links(self) -> list[Any]:
                return [types.SimpleNamespace(get_attr=lambda _k, n=n: n) for n in self._names()]

        return IPRoute()


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Kernel:
    kernel = Kernel(netem=getattr(request, "param", True))
    fake = types.ModuleType("pyroute2")
    fake.IPRoute = kernel.ipr  # type: ignore[attr-defined]
    fake.NetlinkError = NetlinkError  # type: ignore[attr-defined]
    fake.netns = types.SimpleNamespace(  # type: ignore[attr-defined]
        create=lambda name: kernel.spaces.add(name),
        remove=lambda name: kernel.spaces.discard(name),
        listnetns=lambda: sorted(kernel.spaces | {"someone-elses"}),
    )
    monkeypatch.setitem(sys.modules, "pyroute2", fake)
    return kernel


def plan() -> Any:
    job = json.loads((FIXTURES / "h100-2n-vnic.json").read_text())
    return make_plan(job, [0, 1], list(range(4)), model_link(job, 1), PATHS)


def test_create_makes_the_plans_namespaces_links_addresses_and_qdiscs(kernel: Kernel) -> None:
    assert netns.create(plan()) == []
    assert kernel.spaces == {"gclab-ilab-master-0", "gclab-ilab-worker-0"}
    assert kernel.links["gclab-ilab-worker-0"] == ["lo", "eth0", "net1"]
    addresses = [c[2] for c in kernel.calls if c[1] == "addr"]
    assert addresses == [
        "eth0 10.128.0.10/14",
        "net1 10.241.192.128/24",
        "eth0 10.128.2.10/14",
        "net1 10.241.192.129/24",
    ]
    assert [c for c in kernel.calls if c[1] == "qdisc"][:3] == [
        ("gclab-ilab-master-0", "qdisc", "netem net1 parent=root"),
        ("gclab-ilab-master-0", "qdisc", "tbf net1 parent=1:1"),
        (None, "qdisc", "tbf gclab0-net1 parent=root"),
    ]


@pytest.mark.parametrize("kernel", [False], indirect=True)
def test_without_netem_the_tbf_is_the_root_and_the_run_is_told(kernel: Kernel) -> None:
    assert netns.create(plan()) == [
        "this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM): the links get no added latency"
    ]
    qdiscs = [c[2] for c in kernel.calls if c[1] == "qdisc"]
    assert qdiscs[:2] == ["tbf net1 parent=root", "tbf gclab0-net1 parent=root"]


def test_remove_takes_the_labs_namespaces_and_links_and_leaves_the_rest(kernel: Kernel) -> None:
    netns.create(plan())
    # The stand-in keeps the veths' host ends when their namespace goes, as a killed run can leave them.
    removed = netns.remove()
    assert removed == [
        "netns gclab-ilab-master-0",
        "netns gclab-ilab-worker-0",
        "link gclab-eth0",
        "link gclab-net1",
        "link gclab0-eth0",
        "link gclab0-net1",
        "link gclab1-eth0",
        "link gclab1-net1",
    ]
    assert kernel.spaces == set()
    assert [n for n in kernel.links[None] if n] == ["lo", "eth0", "docker0"]
    assert netns.remove() == []  # a second run starts clean
