"""A raw HTTP peer's side of a test: reading one request off a socket, whole."""

from __future__ import annotations

import socket


def read_request(peer: socket.socket) -> bytes:
    """The request's body, once the whole request is read (b"" if the sender hung up first).

    Read whole, body included: a socket closed with bytes still unread answers the sender with a reset,
    which a loaded machine turned into a flaky connection error (the body came in a second read).
    """
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = peer.recv(65536)
        if not chunk:
            return b""
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        chunk = peer.recv(65536)
        if not chunk:
            return b""
        body += chunk
    return body
