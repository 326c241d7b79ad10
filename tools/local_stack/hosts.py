"""Which `Host` the stack's servers answer to: a DNS-rebinding page reaches 127.0.0.1 under its own name.

A browser sends the name in the page's address bar as `Host`, whatever address that name resolved to; a
page of ``evil.example`` whose name now resolves to 127.0.0.1 is same-origin with everything it reaches
there, so only the `Host` it sends tells it apart. Every server of the stack (the twin, the gateway, the
live channel) answers only to loopback names and the address it was bound to.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

#: The names and addresses of this machine's loopback interface, as a `Host` header may spell them.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
#: How a container reaches the machine it runs on (``sam local``; ``local_stack.sam_env``).
CONTAINER_HOST = "host.docker.internal"
HOST_REFUSED = "the local stack answers only to 127.0.0.1, localhost, [::1] and the --host it was given"


def served_names(bind_host: str) -> frozenset[str]:
    """The names a server bound to ``bind_host`` answers to: loopback's, ``bind_host``, and a container's
    name for this machine when bound beyond loopback (`make run HOST=0.0.0.0`, for ``sam local``)."""
    bound = bind_host.strip("[]").lower()
    names = {*LOOPBACK_NAMES, bound}
    if bound not in LOOPBACK_NAMES:
        names.add(CONTAINER_HOST)
    return frozenset(names)


def host_allowed(header: str | None, names: Iterable[str], port: int = 0) -> bool:
    """Whether a request whose `Host` is ``header`` is for us: its name is one of ``names`` and (given a
    ``port``) any port it names is that one. A missing, empty or malformed `Host` is not."""
    if not header or any(c in header for c in "@/\\?# \t,"):
        return False
    try:
        parts = urlsplit(f"//{header}")
        named_port = parts.port
    except ValueError:
        return False
    name = parts.hostname or ""
    if not name or name not in {n.lower() for n in names}:
        return False
    return not (port and named_port is not None and named_port != port)
