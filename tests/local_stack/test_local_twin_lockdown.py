"""The AWS twin answers the local stack's SDK clients only: no web page and no foreign Host (#25: 10)."""

from __future__ import annotations

import http.client
from collections.abc import Iterator

import boto3
import pytest

from local_stack.twin import TwinServer


@pytest.fixture(scope="module")
def twin() -> Iterator[tuple[str, int]]:
    server = TwinServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield host, port
    finally:
        server.stop()


def ask(twin: tuple[str, int], method: str, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(*twin, timeout=30)
    try:
        connection.request(method, path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_a_browsers_cors_preflight_is_refused(twin: tuple[str, int]) -> None:
    headers = {
        "Origin": "https://evil.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "x-amz-target,content-type",
    }
    status, body = ask(twin, "OPTIONS", "/", headers)
    assert status == 403
    assert b"Access-Control-Allow-Origin" not in body


def test_a_request_from_a_web_page_is_refused_even_without_a_preflight(twin: tuple[str, int]) -> None:
    assert ask(twin, "POST", "/moto-api/reset", {"Origin": "null"})[0] == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "10.0.0.1:{port}"])
def test_a_foreign_host_header_is_refused(twin: tuple[str, int], host: str) -> None:
    assert ask(twin, "GET", "/moto-api/data.json", {"Host": host.format(port=twin[1])})[0] == 403


def test_the_sdk_is_still_served(twin: tuple[str, int]) -> None:
    sqs = boto3.client(
        "sqs",
        endpoint_url=f"http://{twin[0]}:{twin[1]}",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    assert sqs.create_queue(QueueName="lockdown")["QueueUrl"].endswith("/lockdown")
    assert ask(twin, "GET", "/moto-api/data.json", {"Host": f"localhost:{twin[1]}"})[0] == 200
