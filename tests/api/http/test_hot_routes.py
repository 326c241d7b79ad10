"""The direct lane (handlers.hot_routes) answers moves and game views exactly as the resolver does.

Each request is sent twice against the same table: once as it comes (the lane takes it, or declines it),
then, with the table put back as it was, through the resolver alone. Status, headers and body must be
the same, and the lane must have answered what it should (not silently handed everything over).
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from app.core import clock as wall_clock
from handlers import api, hot_routes
from tests.support.aws import TABLE

from ..client import Client, FakeContext, make_event
from ..helpers import started, storyteller, view

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def frozen(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # Both answers are built at the same instant: a deadline or an updated_at never tells them apart.
    monkeypatch.setattr(wall_clock, "utc_now", lambda: NOW)


@pytest.fixture
def lane_answers(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the lane answered each request sent since (False: it handed the request over)."""
    answered: list[bool] = []
    real = hot_routes.answer

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        answered.append(result is not None)
        return result

    monkeypatch.setattr(hot_routes, "answer", spy)
    return answered


def _items() -> list[dict[str, Any]]:
    client = boto3.client("dynamodb")
    items: list[dict[str, Any]] = []
    for page in client.get_paginator("scan").paginate(TableName=TABLE, ConsistentRead=True):
        items += page["Items"]
    return items


def _restore(items: list[dict[str, Any]]) -> None:
    client = boto3.client("dynamodb")
    for item in _items():
        client.delete_item(TableName=TABLE, Key={"pk": item["pk"], "sk": item["sk"]})
    for item in items:
        client.put_item(TableName=TABLE, Item=item)


def _shown(result: dict[str, Any]) -> dict[str, Any]:
    """An answer as a client reads it: status, headers, and the body's JSON value."""
    raw = result.get("body")
    headers = {name: list(values) for name, values in (result.get("multiValueHeaders") or {}).items()}
    headers |= {name: [value] for name, value in (result.get("headers") or {}).items()}
    return {"status": result["statusCode"], "headers": headers, "body": json.loads(raw) if raw else raw}


def both_ways(
    monkeypatch: pytest.MonkeyPatch, answered: list[bool], event: dict[str, Any]
) -> tuple[dict[str, Any], bool]:
    """The answer as it comes (asserted equal to the resolver's) and whether the lane gave it."""
    before = _items()
    answered.clear()
    direct = _shown(api.lambda_handler(copy.deepcopy(event), FakeContext()))
    took = answered == [True]
    after = _items()
    _restore(before)
    with monkeypatch.context() as patch:
        patch.setattr(api, "direct_lane", False)
        resolved = _shown(api.lambda_handler(copy.deepcopy(event), FakeContext()))
    assert direct == resolved
    assert _sorted(_items()) == _sorted(after), "the two ways wrote different items"
    _restore(after)
    return direct, took


def _sorted(items: list[dict[str, Any]]) -> list[str]:
    # The recent-request ids a move writes are random: every other attribute must match.
    return sorted(json.dumps({k: v for k, v in i.items() if k != "requests"}, sort_keys=True, default=str)
                  for i in items)  # fmt: skip


def _move(client: Client, path: str, body: Any = None, **kwargs: Any) -> dict[str, Any]:
    return make_event("POST", path, body=body, headers=client.auth(kwargs.pop("headers", None)), **kwargs)


def test_every_move_of_a_round_and_every_look_is_answered_by_the_lane_as_the_resolver_answers_it(
    frozen: None, players: list[Client], monkeypatch: pytest.MonkeyPatch, lane_answers: list[bool]
) -> None:
    table = players[:4]
    game_id = started(table)
    teller = storyteller(table, game_id)
    card = view(teller, game_id)["you"]["hand"][0]["card_id"]
    clue = _move(teller, f"/games/{game_id}/clue", {"card_id": card, "clue": "une forêt d'été"})
    answer, took = both_ways(monkeypatch, lane_answers, clue)
    assert (took, answer["status"]) == (True, 200)
    assert answer["body"]["round"]["clue"] == "une forêt d'été"
    for guest in (c for c in table if c is not teller):
        mine = view(guest, game_id)["you"]["hand"][0]["card_id"]
        answer, took = both_ways(
            monkeypatch, lane_answers, _move(guest, f"/games/{game_id}/submissions", {"card_ids": [mine]})
        )
        assert (took, answer["status"]) == (True, 200)
    for guest in (c for c in table if c is not teller):
        shown = view(guest, game_id)
        theirs = next(
            c["card_id"] for c in shown["round"]["table"] if c["card_id"] not in shown["you"]["submitted"]
        )
        answer, took = both_ways(
            monkeypatch, lane_answers, _move(guest, f"/games/{game_id}/votes", {"card_ids": [theirs]})
        )
        assert (took, answer["status"]) == (True, 200)
    assert answer["body"]["last_round"]["number"] == 1
    look = make_event("GET", f"/games/{game_id}", headers=teller.auth({"Origin": "https://dixit.example"}))
    answer, took = both_ways(monkeypatch, lane_answers, look)
    assert (took, answer["status"]) == (True, 200)
    assert answer["headers"]["Access-Control-Allow-Origin"] == ["*"]
    etag = answer["headers"]["ETag"][0]
    poll = make_event("GET", f"/games/{game_id}", headers=teller.auth({"If-None-Match": etag}))
    answer, took = both_ways(monkeypatch, lane_answers, poll)
    assert (took, answer["status"], answer["body"]) == (True, 304, None)


@pytest.mark.parametrize(
    ("body", "raw", "headers", "lane_takes", "status"),
    [
        ({"card_ids": ["base-001"]}, None, {}, True, 409),  # a rule's refusal: the round awaits its clue
        ({"card_ids": []}, None, {}, False, 422),  # the model refuses it: the resolver says why
        ({"card_ids": "base-001"}, None, {}, False, 422),
        ({"card_ids": ["base-001"], "extra": 1}, None, {}, False, 422),
        (None, None, {}, False, 422),  # no body at all
        (None, "null", {}, False, 422),
        ({"card_ids": ["base-001"]}, None, {"If-Match": "unquoted"}, False, 400),
        ({"card_ids": ["base-001"]}, None, {"If-Match": '"1-0000000000000000"'}, True, 412),
        ({"card_ids": ["base-001"]}, None, {"Idempotency-Key": " "}, False, 400),
        ({"card_ids": ["base-001"]}, None, {"Idempotency-Key": "k" * 300}, False, 400),
        ({"card_ids": ["base-001"]}, None, {"Idempotency-Key": "retry-1"}, True, 409),
    ],
)
def test_a_move_the_lane_takes_or_declines_gets_the_resolvers_answer(
    frozen: None,
    players: list[Client],
    monkeypatch: pytest.MonkeyPatch,
    lane_answers: list[bool],
    body: Any,
    raw: str | None,
    headers: dict[str, str],
    lane_takes: bool,
    status: int,
) -> None:
    table = players[:3]
    game_id = started(table)
    guest = next(c for c in table if c is not storyteller(table, game_id))
    event = _move(guest, f"/games/{game_id}/submissions", body, headers=headers, raw_body=raw)
    answer, took = both_ways(monkeypatch, lane_answers, event)
    assert (took, answer["status"]) == (lane_takes, status), answer["body"]


def test_a_header_sent_twice_is_left_to_the_resolver(
    frozen: None, players: list[Client], monkeypatch: pytest.MonkeyPatch, lane_answers: list[bool]
) -> None:
    table = players[:3]
    game_id = started(table)
    event = make_event("GET", f"/games/{game_id}", headers=table[0].auth())
    event["multiValueHeaders"]["If-None-Match"] = ['"1-a"', '"2-b"']
    answer, took = both_ways(monkeypatch, lane_answers, event)
    assert (took, answer["status"]) == (False, 422)  # the resolver takes neither


def test_lobby_moves_strangers_and_missing_games_get_the_same_answers_either_way(
    frozen: None, players: list[Client], monkeypatch: pytest.MonkeyPatch, lane_answers: list[bool]
) -> None:
    host, guest, stranger = players[:3]
    created = host.post("/games", {"visibility": "private"})
    game_id = created.body["game_id"]
    invite = created.body["invite_code"]
    cases = [
        (_move(stranger, f"/games/{game_id}/join"), True, 403),  # private: the invite code is needed
        (_move(stranger, f"/games/{game_id}/join", {"invite_code": "wrong"}), True, 403),
        (_move(guest, f"/games/{game_id}/join", {"invite_code": invite}), True, 200),
        (_move(guest, f"/games/{game_id}/join", {"invite_code": 7}), False, 422),
        (_move(host, f"/games/{game_id}/start"), True, 409),  # two players: not enough
        (make_event("GET", f"/games/{game_id}", headers=stranger.auth()), True, 403),
        (make_event("GET", "/games/g_0000000000000000", headers=host.auth()), True, 404),
        (make_event("GET", "/games/not-a-game", headers=host.auth()), True, 404),
        (_move(guest, f"/games/{game_id}/leave"), True, 200),
        # A refused token is answered before any route is chosen, either way.
        (make_event("GET", f"/games/{game_id}", headers={"Authorization": "Bearer p_x.y.z"}), False, 401),
    ]
    for event, lane_takes, status in cases:
        answer, took = both_ways(monkeypatch, lane_answers, event)
        assert (took, answer["status"]) == (lane_takes, status), (event["path"], answer["body"])


def test_a_keyed_move_taken_by_one_way_is_replayed_by_the_other(
    frozen: None, players: list[Client], monkeypatch: pytest.MonkeyPatch, lane_answers: list[bool]
) -> None:
    table = players[:3]
    game_id = started(table)
    teller = storyteller(table, game_id)
    card = view(teller, game_id)["you"]["hand"][0]["card_id"]
    keyed = _move(
        teller, f"/games/{game_id}/clue", {"card_id": card, "clue": "dusk"}, headers={"Idempotency-Key": "k1"}
    )
    lane_answers.clear()
    first = _shown(api.lambda_handler(copy.deepcopy(keyed), FakeContext()))
    assert lane_answers == [True]
    written = _items()
    with monkeypatch.context() as patch:
        patch.setattr(api, "direct_lane", False)
        again = _shown(api.lambda_handler(copy.deepcopy(keyed), FakeContext()))
    assert (first["status"], again) == (200, first)
    assert _sorted(_items()) == _sorted(written), "the replay wrote something"
