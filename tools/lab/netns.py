"""The plan's namespaces, links, addresses and qdiscs made real through pyroute2, and removed again.

Thin on purpose: every decision is in ``plan``; this only issues the netlink calls (the lab's hosts
have no iproute2 binaries). Needs root. ``remove`` deletes whatever carries the lab's prefix, so it
also clears what a killed run left behind.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .plan import PREFIX, Plan, Qdisc


def _pyroute2() -> Any:
    try:
        import pyroute2
    except ImportError:
        raise SystemExit("lab: error: pyroute2 is not importable (carry its wheel: docs/lab.md)") from None
    return pyroute2


class NoNetem(RuntimeError):
    """This kernel has no netem qdisc (CONFIG_NET_SCH_NETEM)."""


def create(plan: Plan, with_delay: bool = True) -> list[str]:
    """Create everything ``plan`` lists; returns notes on what could not be (netem absent)."""
    pyroute2 = _pyroute2()
    notes: list[str] = []
    with pyroute2.IPRoute() as host:
        for bridge in plan.bridges:
            host.link("add", ifname=bridge, kind="bridge")
            host.link("set", index=host.link_lookup(ifname=bridge)[0], state="up")
        for node in plan.nodes:
            pyroute2.netns.create(node.namespace)
            for interface in node.interfaces:
                inner = f"{interface.host_end}p"
                host.link("add", ifname=interface.host_end, kind="veth", peer=inner)
                (end,) = host.link_lookup(ifname=interface.host_end)
                (bridge,) = host.link_lookup(ifname=interface.bridge)
                host.link("set", index=end, master=bridge, state="up")
                host.link("set", index=host.link_lookup(ifname=inner)[0], net_ns_fd=node.namespace)
            with pyroute2.IPRoute(netns=node.namespace) as inside:
                inside.link("set", index=inside.link_lookup(ifname="lo")[0], state="up")
                for interface in node.interfaces:
                    (index,) = inside.link_lookup(ifname=f"{interface.host_end}p")
                    inside.link("set", index=index, ifname=interface.name)
                    ip, _, prefix = interface.address.partition("/")
                    inside.addr("add", index=index, address=ip, prefixlen=int(prefix))
                    inside.link("set", index=index, state="up")
        for qdisc in plan.qdiscs:
            if qdisc.kind == "netem" and not with_delay:
                continue
            if qdisc.parent == "1:1" and not with_delay:
                qdisc = replace(qdisc, parent="root")  # no netem above it: the tbf is the root
            try:
                _add_qdisc(pyroute2, host, qdisc)
            except NoNetem:
                notes.append("this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM): the links get no added latency")
                with_delay = False
    return sorted(set(notes))


def _add_qdisc(pyroute2: Any, host: Any, qdisc: Qdisc) -> None:
    handle = pyroute2.IPRoute(netns=qdisc.namespace) if qdisc.namespace else None
    ipr = handle or host
    try:
        (index,) = ipr.link_lookup(ifname=qdisc.device)
        parent = {} if qdisc.parent == "root" else {"parent": qdisc.parent}
        if qdisc.kind == "netem":
            try:
                ipr.tc("add", "netem", index, handle=qdisc.handle, delay=qdisc.delay_us)
            except pyroute2.NetlinkError as error:
                if error.code == 2:  # ENOENT: the kernel knows no qdisc of that kind
                    raise NoNetem() from None
                raise
            return
        bits = f"{qdisc.rate_bytes_s * 8}bit"
        ipr.tc(
            "add",
            "tbf",
            index,
            handle=qdisc.handle,
            rate=bits,
            burst=qdisc.burst_bytes,
            limit=qdisc.limit_bytes,
            **parent,
        )
    finally:
        if handle is not None:
            handle.close()


def leftovers() -> tuple[list[str], list[str]]:
    """The lab's namespaces and host links present now (a killed run's, or this run's)."""
    pyroute2 = _pyroute2()
    spaces = [n for n in pyroute2.netns.listnetns() if n.startswith(PREFIX)]
    with pyroute2.IPRoute() as host:
        links = [link.get_attr("IFLA_IFNAME") for link in host.get_links()]
    return spaces, [name for name in links if name and name.startswith(PREFIX)]


def remove() -> list[str]:
    """Delete every namespace and link with the lab's prefix; returns what was removed."""
    pyroute2 = _pyroute2()
    spaces, links = leftovers()
    for name in spaces:
        pyroute2.netns.remove(name)
    removed = [f"netns {n}" for n in spaces]
    with pyroute2.IPRoute() as host:
        # A namespace's removal takes its veth ends with it; what is left are bridges and stray veths.
        for name in links:
            found = host.link_lookup(ifname=name)
            if found:
                host.link("del", index=found[0])
                removed.append(f"link {name}")
    return removed
