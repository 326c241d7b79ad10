"""Where a webhook may point: public https endpoints only, checked at registration and again at delivery.

A URL is vetted by resolving its host and judging every address it resolves to; delivery then connects to
the vetted address itself (keeping the original Host and SNI), so a DNS answer that changes between the
check and the connection cannot steer a request inside the network.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from urllib.parse import quote, urlsplit, urlunsplit

from app.core.errors import InvalidInput
from dixit.lean_dataclass import dataclass

MAX_URL_LENGTH = 2048
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Sequence[str]]

# Cloud metadata and instance-local services: refused everywhere, even on a developer's laptop.
METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack
        "169.254.170.2",  # ECS task metadata
        "169.254.169.253",  # AWS VPC DNS
        "169.254.169.123",  # AWS time sync
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fd00:ec2::253",
        "fd00:ec2::123",
        "100.100.100.200",  # Alibaba Cloud
        "192.0.0.192",  # Oracle Cloud
    )
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
# The only IPv6 unicast space IANA hands out for the Internet: the rest (site-local fec0::/10, ULA
# fc00::/7, the discard and reserved blocks) is never a public receiver, whatever `is_global` says.
_GLOBAL_UNICAST_V6 = ipaddress.ip_network("2000::/3")
# Characters a path or query keeps as they are; everything else is percent-encoded as UTF-8.
_URL_SAFE = "/%:@!$&'()*+,;=-._~?"
# Forms inet_aton accepts but no one writes by accident: 2130706433, 0x7f.1, 0177.0.0.1, 127.1.
_NUMERIC_LABEL = re.compile(r"^(0[xX][0-9a-fA-F]*|[0-9]+)$")


class UnsafeUrl(InvalidInput):
    """A webhook URL we will not call; `code` says why."""


@dataclass(frozen=True, slots=True)
class Target:
    """A vetted URL: connect to `address`, but speak to `host` (Host header and TLS SNI)."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 form carries, if any (mapped, 6to4, Teredo, NAT64)."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refusal(address: IPAddress, *, allow_loopback: bool) -> str | None:
    """Why we will not connect to `address` (None when it is a public unicast address)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return "a scoped IPv6 address"
        address = ipaddress.IPv6Address(address.exploded)
        inner = _embedded_ipv4(address)
        if inner is not None:
            return refusal(inner, allow_loopback=allow_loopback) or (
                None if inner.is_global else "a non-public IPv4 address inside an IPv6 one"
            )
    if address in METADATA:
        return "a cloud metadata address"
    if (
        isinstance(address, ipaddress.IPv6Address)
        and not address.is_loopback
        and address not in _GLOBAL_UNICAST_V6
    ):
        return "a site-local or otherwise non-global IPv6 address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_loopback:
        return None if allow_loopback else "a loopback address"
    if address.is_multicast:
        return "a multicast address"
    if address.is_unspecified or address.is_reserved:
        return "a reserved address"
    if address.is_private:
        return "a private address"
    if not address.is_global:
        return "a non-public address"
    return None


def normalize(url: str) -> str:
    """`url` as it will be called: an ASCII (IDNA) host in lower case and a percent-encoded path and
    query, so what is stored, shown and requested is one and the same. Raises UnsafeUrl if it cannot be.
    """
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeUrl("webhook_url_too_long", f"webhook URLs are limited to {MAX_URL_LENGTH} characters")
    if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url):
        raise UnsafeUrl("webhook_url_invalid", "the URL contains whitespace or control characters")
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        raise UnsafeUrl("webhook_url_invalid", "the URL cannot be parsed") from None
    if parts.username is not None or parts.password is not None or not host:
        return url  # judged (and refused) by _parse, which says why
    try:
        if "[" in parts.netloc:
            netloc = parts.netloc.lower()  # an IPv6 literal: ASCII already
        else:
            ascii_host = host.encode("idna").decode("ascii").lower()
            netloc = ascii_host if port is None else f"{ascii_host}:{port}"
        path = quote(parts.path, safe=_URL_SAFE, encoding="utf-8", errors="strict")
        query = quote(parts.query, safe=_URL_SAFE, encoding="utf-8", errors="strict")
    except UnicodeError:
        raise UnsafeUrl("webhook_url_invalid", "the host or path cannot be written in a URL") from None
    normalized = urlunsplit((parts.scheme.lower(), netloc, path, query, ""))
    if len(normalized) > MAX_URL_LENGTH:
        raise UnsafeUrl("webhook_url_too_long", f"webhook URLs are limited to {MAX_URL_LENGTH} characters")
    return normalized


def _parse(url: str, *, allow_loopback_http: bool) -> tuple[str, str, int, str]:
    url = normalize(url)
    try:
        parts = urlsplit(url)
        port = parts.port
        host = parts.hostname
    except ValueError:
        raise UnsafeUrl("webhook_url_invalid", "the URL cannot be parsed") from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and allow_loopback_http):
        raise UnsafeUrl("webhook_url_not_https", "webhook URLs must start with https://")
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl("webhook_url_has_credentials", "webhook URLs may not carry a user name or password")
    if not host:
        raise UnsafeUrl("webhook_url_invalid", "the URL has no host")
    if "%" in host:
        raise UnsafeUrl("webhook_url_forbidden_address", "scoped IPv6 addresses are not allowed")
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is None and all(_NUMERIC_LABEL.fullmatch(label) for label in host.split(".")):
        raise UnsafeUrl(
            "webhook_url_invalid", "write an IPv4 host as four decimal numbers, or use a domain name"
        )
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return scheme, host, port or (443 if scheme == "https" else 80), path


def vet(
    url: str,
    *,
    allow_loopback_http: bool = False,
    resolver: Resolver | None = None,
    refused_loopback_ports: frozenset[int] = frozenset(),
) -> Target:
    """Check `url` and pin the address to call; raises UnsafeUrl with a stable code.

    With `allow_loopback_http` (the local stack only) plain http is accepted, and only towards loopback,
    and never to `refused_loopback_ports` (the local stack's own twin and gateway).
    """
    scheme, host, port, path = _parse(url, allow_loopback_http=allow_loopback_http)
    try:
        # Looked up at call time (not bound as a default), so tests can stand in for DNS.
        answers = list((resolver or system_resolver)(host, port))
    except (OSError, UnicodeError):
        answers = []
    if not answers:
        raise UnsafeUrl("webhook_url_unresolvable", f"the host {host} does not resolve")
    addresses: list[IPAddress] = []
    for answer in answers:
        # Every answer is judged: a name resolving to one public and one private address is refused.
        address = None if "%" in answer else ipaddress.ip_address(answer)
        reason = (
            "a scoped IPv6 address"
            if address is None
            else refusal(address, allow_loopback=allow_loopback_http)
        )
        if address is None or reason is not None:
            raise UnsafeUrl("webhook_url_forbidden_address", f"the host resolves to {reason} ({answer})")
        addresses.append(address)
    chosen = addresses[0]
    if any(a.is_loopback for a in addresses) and port in refused_loopback_ports:
        raise UnsafeUrl(
            "webhook_url_forbidden_address",
            f"port {port} on this machine is the local stack's own service, not a webhook receiver",
        )
    if scheme == "http" and not chosen.is_loopback:
        raise UnsafeUrl("webhook_url_not_https", "plain http is allowed only towards this machine")
    return Target(scheme=scheme, host=host, port=port, path=path, address=str(chosen))
