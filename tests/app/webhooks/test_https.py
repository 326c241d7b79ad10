"""HTTPS delivery to a pinned address: TCP goes to the vetted IP, TLS and Host name the URL's host."""

from __future__ import annotations

import datetime
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.webhooks.http import post
from app.webhooks.ssrf import Target

HOST = "hooks.test"


@dataclass
class TlsReceiver:
    port: int
    ca_file: Path
    seen: list[dict[str, str]]


def _certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a certificate for HOST signed by it (PEM files)."""
    now = datetime.datetime.now(datetime.UTC)
    hour = datetime.timedelta(hours=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "dixit test CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - hour)
        .not_valid_after(now + hour)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST)]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - hour).not_valid_after(now + hour)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST)]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    ca_file, cert_file, key_file = directory / "ca.pem", directory / "cert.pem", directory / "key.pem"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return ca_file, cert_file, key_file


@pytest.fixture
def tls_receiver(tmp_path: Path) -> Iterator[TlsReceiver]:
    ca_file, cert_file, key_file = _certificates(tmp_path)
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen.append({"host": self.headers.get("Host", ""), "sni": getattr(self.connection, "sni", "")})
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert_file, key_file)

    def remember_sni(sock: ssl.SSLObject, name: str | None, _: ssl.SSLContext) -> None:
        sock.sni = name or ""  # type: ignore[attr-defined]

    server_context.sni_callback = remember_sni  # type: ignore[assignment]
    server = HTTPServer(("127.0.0.1", 0), Handler)
    server.socket = server_context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield TlsReceiver(server.server_address[1], ca_file, seen)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_https_connects_to_the_vetted_address_but_sends_the_urls_host_as_sni_and_host_header(
    tls_receiver: TlsReceiver,
) -> None:
    trust = ssl.create_default_context(cafile=str(tls_receiver.ca_file))
    target = Target("https", HOST, tls_receiver.port, "/dixit", "127.0.0.1")
    outcome = post(target, b"{}", {"Content-Type": "application/json"}, timeout=5, tls=trust)
    assert (outcome.ok, outcome.status) == (True, "204")
    assert tls_receiver.seen == [{"host": f"{HOST}:{tls_receiver.port}", "sni": HOST}]


def test_a_certificate_for_another_name_fails_the_delivery(tls_receiver: TlsReceiver) -> None:
    trust = ssl.create_default_context(cafile=str(tls_receiver.ca_file))
    target = Target("https", "other.test", tls_receiver.port, "/dixit", "127.0.0.1")
    outcome = post(target, b"{}", {}, timeout=5, tls=trust)
    assert (outcome.ok, outcome.status) == (False, "tls_error")
    assert tls_receiver.seen == []
