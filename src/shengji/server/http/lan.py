"""Playing with friends on a network: the addresses others can reach this server on.

``shengji serve --host 0.0.0.0`` listens on every interface; the people at the table need
this machine's address on the local network, not 127.0.0.1. ``lan_addresses()`` finds it
(the interface a packet to a private address would leave by: nothing is sent), and
``share_urls`` says what ``serve`` prints. The browser's share link uses the address the
browser itself used, except on this machine (a loopback address), where the server tells
it its LAN address (``/api/meta`` ``share_base``).

>>> share_urls("127.0.0.1", 8765, ["192.168.1.23"])
[]
>>> share_urls("0.0.0.0", 8765, ["192.168.1.23"])
['http://192.168.1.23:8765/']
>>> share_urls("192.168.1.23", 80, [])
['http://192.168.1.23:80/']
>>> is_loopback("::1"), is_loopback("localhost"), is_loopback("10.0.0.2")
(True, True, False)
"""

from __future__ import annotations

import ipaddress
import socket

WILDCARDS = ("", "0.0.0.0", "::")
"""Hosts that mean every interface."""

_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
"""Private addresses a UDP socket is 'connected' to, to learn the outgoing interface."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.x, ::1, localhost)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the outgoing interface's first;
    loopback and link-local addresses left out. Empty on a machine with no network."""
    found: list[str] = []
    for probe in _PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 1))  # UDP: no packet is sent
                found.append(s.getsockname()[0])
            except OSError:
                continue
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found.extend(str(info[4][0]) for info in infos)
    except OSError:
        pass
    out: list[str] = []
    for addr in found:
        ip = ipaddress.ip_address(addr)
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or addr in out:
            continue
        out.append(addr)
    return out


def share_urls(host: str, port: int, addresses: list[str] | None = None) -> list[str]:
    """The URLs other machines can open: each LAN address when listening on every
    interface, the address itself when bound to one; none for a loopback-only server."""
    if host in WILDCARDS:
        return [_url(a, port) for a in (lan_addresses() if addresses is None else addresses)]
    if is_loopback(host):
        return []
    return [_url(host, port)]


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def share_base(host: str, local: tuple[str, int] | None) -> str | None:
    """What a browser on this machine should put in a share link instead of its own
    loopback address: ``http://<LAN address>:<port>`` when the server listens on every
    interface and the request came in on ``local`` (the connection's own address and port)
    through loopback; None otherwise (the browser's own address is right).

    >>> share_base("127.0.0.1", ("127.0.0.1", 8765)) is None
    True
    """
    if host not in WILDCARDS or local is None or not is_loopback(str(local[0])):
        return None
    addresses = lan_addresses()
    return _url(addresses[0], int(local[1])).rstrip("/") if addresses else None
