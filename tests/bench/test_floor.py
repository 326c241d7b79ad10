"""The handler floor replays a request's calls as the app makes them: through the client's public methods."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from tests.bench.test_bench_rules import BENCH, load


@pytest.fixture
def bench_modules() -> Any:
    sys.path.insert(0, str(BENCH))
    try:
        yield load("inprocess"), load("floor")
    finally:
        sys.path.remove(str(BENCH))


def test_the_floor_replays_each_captured_call_through_the_clients_public_method(
    bench_modules: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import botocore.client

    inprocess, floor_module = bench_modules
    # The floor patches botocore's client class to capture calls: put it back after the test.
    original = botocore.client.BaseClient._make_api_call
    monkeypatch.setattr(botocore.client.BaseClient, "_make_api_call", original)
    with inprocess.moto_api(BENCH.parent) as properties:
        floor = floor_module.Floor(properties)
        key = {name: {"S": "GAME#g_1"} for name in floor.key_names}
        request = {"TableName": inprocess.TABLE, "Key": key, "ConsistentRead": True}
        floor.start()
        floor.raw.get_item(**request)  # the "handler's" call, captured
        assert [(service, operation) for service, operation, _ in floor.calls] == [("dynamodb", "GetItem")]

        replayed: list[dict[str, Any]] = []
        public = floor.raw.get_item

        def spy(**params: Any) -> Any:
            replayed.append(params)
            return public(**params)

        # botocore's per-call work (a context for the call, its user-agent features) wraps the public
        # method: a replay straight to _make_api_call would skip what every call of the app pays.
        monkeypatch.setattr(floor.raw, "get_item", spy)
        assert floor.sample(times=3) > 0
    assert replayed == [request] * 3
