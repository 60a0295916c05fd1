"""The addresses other devices on the same network can reach this machine at (IPv4, standard library only).

Used by ``scorekeeper serve --host 0.0.0.0`` to tell the players which address to open. Nothing is sent:
the interfaces are read from the system (Linux), the machine's own name is looked up, and a UDP socket
is pointed at a documentation address (no packet leaves) to learn the address of the default route.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from collections.abc import Iterator

_SIOCGIFADDR = 0x8915  # Linux: the IPv4 address of one interface
_ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1: connect() on UDP only picks the route, sends nothing


def lan_addresses() -> list[str]:
    """Every non-loopback IPv4 address of this machine, the default route's first."""
    found: list[str] = []
    for address in (*_default_route(), *_interfaces(), *_host_name()):
        if address not in found and _reachable(address):
            found.append(address)
    return found


def _reachable(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def _default_route() -> Iterator[str]:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            yield str(probe.getsockname()[0])
    except OSError:
        return


def _interfaces() -> Iterator[str]:
    if not sys.platform.startswith("linux"):
        return
    import fcntl

    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as query:
        for name in names:
            try:
                answer = fcntl.ioctl(query.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface without an IPv4 address
                continue
            yield socket.inet_ntoa(answer[20:24])


def _host_name() -> Iterator[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return
    for *_, sockaddr in infos:
        yield str(sockaddr[0])
