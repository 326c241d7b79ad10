"""The fault walk: every DynamoDB call of every move route, with and without a key, fails once.

Faults are injected on the API's own DynamoDB client through botocore's event hooks, on moto:

- `throttle`, `server_error`, `timeout_before_send`: the call fails as it would once botocore's own
  retries are spent (a `before-call` hook answers for DynamoDB, so nothing reaches the table);
- `lost_answer`: the write lands but its answer is lost once (a `before-send` hook that runs after moto
  raises a read timeout), so botocore retries a request that already committed;
- `lost_every_answer`: the same on every attempt, until botocore gives up with the timeout.

Each case checks that the game is intact (nothing half-written), the answer honest (2xx exactly when
the request was applied; otherwise 503 or 409 with Retry-After and nothing changed) and that the same
request, retried without faults, converges: applied exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import boto3
import botocore.endpoint
import pytest
from botocore.awsrequest import AWSResponse
from botocore.exceptions import ConnectTimeoutError, ReadTimeoutError

from app.aws import clients as aws_clients
from app.games import state_codec
from tests.support.aws import TABLE

from ..client import Client, Reply
from ..helpers import foreign_card, give_clue, hand, lobby, started, storyteller, submit_all

KINDS = ["throttle", "server_error", "timeout_before_send", "lost_answer", "lost_every_answer"]
_REFUSALS = {
    "throttle": (400, "ThrottlingException"),
    "server_error": (500, "InternalServerError"),
}


class Faults:
    """Counts the API client's DynamoDB calls and fails the one numbered `target` in the chosen way."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.target: int | None = None
        self.kind = ""
        self.answers_lost = 0
        events = aws_clients.dynamodb().meta.events
        events.register("before-call.dynamodb", self._before_call)
        # On "before-send" itself, where moto's own hook sits: a handler on the more specific
        # "before-send.dynamodb" would run before moto's, whatever order it was registered in.
        events.register_last("before-send", self._after_the_table)

    def arm(self, target: int | None, kind: str = "") -> None:
        self.calls, self.target, self.kind, self.answers_lost = [], target, kind, 0

    def _is_target(self) -> bool:
        return self.target is not None and len(self.calls) - 1 == self.target

    def _before_call(self, model: Any, **_: Any) -> Any:
        self.calls.append(model.name)
        if not self._is_target():
            return None
        if self.kind == "timeout_before_send":
            raise ConnectTimeoutError(endpoint_url="https://dynamodb.us-east-1.amazonaws.com/")
        if self.kind in _REFUSALS:
            status, code = _REFUSALS[self.kind]
            parsed = {
                "Error": {"Code": code, "Message": "injected"},
                "ResponseMetadata": {"HTTPStatusCode": status},
            }
            return AWSResponse("https://dynamodb.us-east-1.amazonaws.com/", status, {}, None), parsed
        return None

    def _after_the_table(self, request: Any, **_: Any) -> None:
        # Runs after moto's hook: the table has already applied the request.
        lost = self.kind == "lost_every_answer" or (self.kind == "lost_answer" and not self.answers_lost)
        if self._is_target() and lost:
            self.answers_lost += 1
            raise ReadTimeoutError(endpoint_url=request.url)


@pytest.fixture
def faults(aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Faults]:
    # botocore's backoff between its own retries would only make the walk slow.
    monkeypatch.setattr(botocore.endpoint, "time", SimpleNamespace(sleep=lambda _: None))
    injector = Faults()
    yield injector
    injector.arm(None)


@pytest.fixture
def players(aws: None) -> list[Client]:
    """Three players are all any staged move needs (registering costs a handler call each)."""
    return [Client(f"Player {i}").register() for i in range(3)]


def table_items() -> dict[tuple[str, str], dict[str, Any]]:
    items: dict[tuple[str, str], dict[str, Any]] = {}
    for page in boto3.client("dynamodb").get_paginator("scan").paginate(TableName=TABLE):
        for item in page["Items"]:
            items[(item["pk"]["S"], item["sk"]["S"])] = item
    return items


def unlimited(items: dict[tuple[str, str], dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """The items but the rate counters (app.core.rates: `LIMIT#…`)."""
    return {key: item for key, item in items.items() if not key[0].startswith("LIMIT#")}


def restore(snapshot: dict[tuple[str, str], dict[str, Any]]) -> None:
    client = boto3.client("dynamodb")
    for key in set(table_items()) - set(snapshot):
        client.delete_item(TableName=TABLE, Key={"pk": {"S": key[0]}, "sk": {"S": key[1]}})
    for item in snapshot.values():
        client.put_item(TableName=TABLE, Item=item)


def assert_intact(items: dict[tuple[str, str], dict[str, Any]]) -> None:
    """Every game's item agrees with itself, and memberships agree with the games. No move writes a
    round's history item: the stream consumer does, from the game item (not fed in this walk)."""
    for (pk, sk), item in items.items():
        if sk != "STATE":
            continue
        state = state_codec.unpack(item["state"]["B"])
        assert int(item["version"]["N"]) == state.version
        members = {p for (p, s) in items if s == pk}
        assert members == {f"PLAYER#{p.player_id}" for p in state.players}
        assert not [s for (p, s) in items if p == pk and s.startswith("ROUND#")]


@dataclass
class Move:
    """One request, and how to tell from the table whether it was applied."""

    actor: Client
    path: str
    body: Any
    applied: Callable[[dict[tuple[str, str], dict[str, Any]]], int]  # how many times it is in the table


def version_gain(game_id: str, before: int) -> Callable[[dict[tuple[str, str], dict[str, Any]]], int]:
    def gain(items: dict[tuple[str, str], dict[str, Any]]) -> int:
        return int(items[(f"GAME#{game_id}", "STATE")]["version"]["N"]) - before

    return gain


def version_of(game_id: str) -> int:
    return int(table_items()[(f"GAME#{game_id}", "STATE")]["version"]["N"])


def stage(route: str, players: list[Client]) -> Move:
    """The game just before `route`'s move, built without faults; the move to make then."""
    if route == "create":
        host = players[0]

        def games_of_host(items: dict[tuple[str, str], dict[str, Any]]) -> int:
            return sum(1 for (pk, sk) in items if pk == f"PLAYER#{host.player_id}" and sk.startswith("GAME#"))

        return Move(host, "/games", {"rules": "classic"}, games_of_host)
    three = players[:3]
    if route == "join":
        game_id = lobby(players[:2])
        return Move(players[2], f"/games/{game_id}/join", None, version_gain(game_id, version_of(game_id)))
    if route == "leave":
        game_id = lobby(three)
        return Move(players[2], f"/games/{game_id}/leave", None, version_gain(game_id, version_of(game_id)))
    if route == "start":
        game_id = lobby(three)
        return Move(players[0], f"/games/{game_id}/start", None, version_gain(game_id, version_of(game_id)))
    game_id = started(three)
    if route == "clue":
        teller = storyteller(three, game_id)
        body = {"card_id": hand(teller, game_id)[0], "clue": "a quiet storm"}
        return Move(teller, f"/games/{game_id}/clue", body, version_gain(game_id, version_of(game_id)))
    teller = give_clue(three, game_id)
    guessers = [c for c in three if c is not teller]
    if route == "submit":
        body = {"card_ids": hand(guessers[0], game_id)[:2]}
        return Move(
            guessers[0], f"/games/{game_id}/submissions", body, version_gain(game_id, version_of(game_id))
        )
    submit_all(three, game_id)
    first = guessers[0].post(f"/games/{game_id}/votes", {"card_ids": [foreign_card(guessers[0], game_id)]})
    assert first.status == 200, first.raw
    body = {"card_ids": [foreign_card(guessers[1], game_id)]}
    # The last ballot: scoring writes the reveal in the same transaction.
    return Move(guessers[1], f"/games/{game_id}/votes", body, version_gain(game_id, version_of(game_id)))


def send(move: Move, key: str | None) -> Reply:
    headers = {"Idempotency-Key": key} if key else None
    return move.actor.post(move.path, move.body, headers=headers)


def unsigned(body: Any) -> Any:
    if isinstance(body, dict):
        return {k: None if k == "image_url" else unsigned(v) for k, v in body.items()}
    if isinstance(body, list):
        return [unsigned(v) for v in body]
    return body


ROUTES = ["create", "join", "leave", "start", "clue", "submit", "vote"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("keyed", [False, True], ids=["no-key", "key"])
@pytest.mark.parametrize("route", ROUTES)
def test_a_fault_at_any_dynamodb_call_of_a_move_gets_an_honest_answer_and_a_retry_applies_it_once(
    players: list[Client], faults: Faults, route: str, keyed: bool, kind: str
) -> None:
    move = stage(route, players)
    snapshot = table_items()
    key = f"{route}-{kind}" if keyed else None

    faults.arm(None)
    assert send(move, key).status in (200, 201)
    calls = list(faults.calls)
    assert calls, "the move made no DynamoDB call"
    restore(snapshot)

    for target, operation in enumerate(calls):
        case = f"{kind} at call {target} ({operation})"
        faults.arm(target, kind)
        reply = send(move, key)
        faults.arm(None)
        after = table_items()
        assert_intact(after)
        applied = move.applied(after) - move.applied(snapshot)
        if reply.status in (200, 201):
            assert applied == 1, case
        else:
            assert reply.status in (409, 503), (case, reply.raw)
            assert reply.headers.get("Retry-After"), case
            assert reply.headers["Content-Type"] == "application/problem+json", case
            # Rate counters count attempts, refused ones too (a flood of failing joins is still a flood):
            # the one write a refused join or leave may leave behind.
            assert unlimited(after) == unlimited(snapshot), f"{case}: a refused request changed the table"

        again = send(move, key)  # the client's retry, without faults
        if reply.status not in (200, 201) or keyed:
            assert again.status in (200, 201), (case, again.raw)
        if keyed and reply.status in (200, 201):
            assert unsigned(again.body) == unsigned(reply.body), case
        converged = table_items()
        assert_intact(converged)
        if not (route == "create" and not keyed and reply.status == 201):  # else the retry is a 2nd game
            assert move.applied(converged) - move.applied(snapshot) == 1, case
        restore(snapshot)
