"""With worker processes as execution environments, the gateway runs handler calls side by side."""

from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path

import pytest

from local_stack.environments import ExecutionEnvironments
from local_stack.gateway import Gateway
from local_stack.server import GatewayServer
from local_stack.template import api_routes, functions, load_template

TEMPLATE = load_template()
WAIT = 60.0  # a bound on waiting, never a claim about speed

# Each call checks in, then waits (boundedly) until the other call has checked in too: two calls run at
# once only if two environments serve them. One at a time, the first would give up waiting alone.
RENDEZVOUS_HANDLER = """
import json, os, time
from pathlib import Path

def handler(event, context):
    meeting = Path(os.environ["RENDEZVOUS_DIR"])
    (meeting / f"{os.getpid()}-{context.aws_request_id}").touch()
    deadline = time.monotonic() + float(os.environ["RENDEZVOUS_WAIT"])
    while len(list(meeting.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    met = len(list(meeting.iterdir())) >= 2
    return {"statusCode": 200, "body": json.dumps({"met": met, "pid": os.getpid()})}
"""


def test_two_requests_run_in_two_environments_at_the_same_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "code"
    code.mkdir()
    (code / "rendezvous.py").write_text(RENDEZVOUS_HANDLER)
    meeting = tmp_path / "meeting"
    meeting.mkdir()
    monkeypatch.setenv("RENDEZVOUS_DIR", str(meeting))
    monkeypatch.setenv("RENDEZVOUS_WAIT", str(WAIT / 2))
    specs = functions(TEMPLATE)
    environments = ExecutionEnvironments(2, {name: "rendezvous.handler" for name in specs}, [code])
    gateway = Gateway(api_routes(TEMPLATE), {}, functions=specs, environments=environments)
    server = GatewayServer(gateway, "127.0.0.1", 0).start()
    answers: list[dict[str, object]] = []

    def ask() -> None:
        connection = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
        connection.request("GET", "/decks")
        answers.append(json.loads(connection.getresponse().read()))
        connection.close()

    try:
        callers = [threading.Thread(target=ask) for _ in range(2)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(WAIT)
    finally:
        server.stop()
        environments.close()
    assert [answer["met"] for answer in answers] == [True, True]
    assert len({answer["pid"] for answer in answers}) == 2
