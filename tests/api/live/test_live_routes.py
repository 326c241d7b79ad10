"""The live channel through its handlers on moto: the ticket route (ApiFunction), the WebSocket events
API Gateway sends LiveFunction (built as the local stack builds them), and LiveDeliveryFunction's posts
through the management API (moto's)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from app.live.connections import MOST_CONNECTIONS_PER_PLAYER
from handlers import live, live_delivery
from local_stack.live import connect_event, disconnect_event, message_event
from local_stack.queues import sqs_event
from tests.support.aws import forget_clients_and_settings

from ..client import Client, FakeContext
from ..helpers import assert_problem, create_game, lobby

LIVE_URL = "wss://live0.execute-api.us-east-1.amazonaws.com/dev"
ENDPOINT = "https://live0.execute-api.us-east-1.amazonaws.com/dev"


@pytest.fixture
def live_env(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVE_URL", LIVE_URL)
    monkeypatch.setenv("LIVE_ENDPOINT_URL", ENDPOINT)
    forget_clients_and_settings()


def ticket_of(client: Client) -> str:
    reply = client.post("/live/tickets")
    assert reply.status == 200, reply.raw
    assert reply.body["url"] == LIVE_URL
    assert reply.headers["Cache-Control"] == "no-store"
    assert 0 < reply.body["expires_in"] <= 60
    ticket: str = reply.body["ticket"]
    return ticket


def opened(client: Client) -> str:
    """A connection id whose $connect, with a fresh ticket of `client`, was accepted."""
    connection = uuid.uuid4().hex[:15] + "="
    answer = live.lambda_handler(
        connect_event(connection, f"ticket={ticket_of(client)}", [], "dev"), FakeContext()
    )
    assert answer["statusCode"] == 200, answer
    return connection


def frame(connection: str, body: Any) -> dict[str, Any]:
    answer = live.lambda_handler(message_event(connection, json.dumps(body), "dev"), FakeContext())
    assert answer["statusCode"] == 200
    reply: dict[str, Any] = json.loads(answer["body"])
    return reply


def test_a_ticket_needs_a_signed_in_player(live_env: None) -> None:
    assert_problem(Client("nobody", token="nope").post("/live/tickets"), 401, "invalid_token")


def test_a_ticket_opens_one_connection_and_a_replay_is_refused(live_env: None, players: list[Client]) -> None:
    ticket = ticket_of(players[0])
    first = live.lambda_handler(connect_event("c1=", f"ticket={ticket}", [], "dev"), FakeContext())
    assert first["statusCode"] == 200
    again = live.lambda_handler(connect_event("c2=", f"ticket={ticket}", [], "dev"), FakeContext())
    assert again["statusCode"] == 401
    without = live.lambda_handler(connect_event("c3=", "", [], "dev"), FakeContext())
    assert without["statusCode"] == 401


def test_members_watch_their_private_game_and_strangers_cannot(live_env: None, players: list[Client]) -> None:
    ada, stranger = players[0], players[5]
    game_id = create_game(ada, visibility="private")
    mine, theirs = opened(ada), opened(stranger)
    assert frame(mine, {"action": "watch", "game_id": game_id})["type"] == "watching"
    refused = frame(theirs, {"action": "watch", "game_id": game_id})
    assert (refused["type"], refused["code"]) == ("error", "not_a_member")
    assert stranger.get(f"/games/{game_id}").status == 403  # what the frame said, and no more
    assert frame(theirs, {"action": "dance"})["code"] == "action_unknown"


def _posted() -> dict[str, bytes]:
    """What moto's management API took, by connection (each connection's posts one after the other)."""
    from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

    # moto keeps each id as the request's path had it, percent-encoded.
    return {
        unquote(connection_id): connection.data
        for account in apigatewaymanagementapi_backends.values()
        for backend in account.values()
        for connection_id, connection in backend.connections.items()
    }


def _deliver(game_id: str, version: int, members: list[str], **extra: str) -> dict[str, Any]:
    """LiveDeliveryFunction's answer to the live queue's message of the game's change, as SQS sends it."""
    body = json.dumps(
        {"id": f"{game_id}:{version}:live", "game_id": game_id, "version": version, "members": members}
        | extra
    )
    message = {
        "MessageId": f"m{version}",
        "ReceiptHandle": f"r{version}",
        "Body": body,
        "Attributes": {"ApproximateReceiveCount": "1"},
        "MD5OfBody": "",
    }
    event = sqs_event([message], "arn:aws:sqs:us-east-1:123456789012:live", "us-east-1")
    answer: dict[str, Any] = live_delivery.lambda_handler(event, FakeContext())
    return answer


def test_the_sender_tells_watchers_and_members_and_a_closed_connection_is_not_told(
    live_env: None, players: list[Client]
) -> None:
    ada, bob = players[0], players[1]
    game_id = create_game(ada)
    watching, closed = opened(ada), opened(bob)
    frame(watching, {"action": "watch", "game_id": game_id})
    frame(closed, {"action": "watch", "game_id": game_id})
    assert live.lambda_handler(disconnect_event(closed, "dev", 1000, ""), FakeContext())["statusCode"] == 200
    assert _deliver(game_id, 3, [ada.player_id]) == {"batchItemFailures": []}
    posted = _posted()
    assert closed not in posted
    # Ada's connection watches the game: game.changed alone (it says her inbox entry changed too).
    game = {"type": "game.changed", "game_id": game_id, "version": 3}
    assert posted[watching] == json.dumps(game, separators=(",", ":")).encode()


def test_a_deleted_accounts_socket_is_told_nothing_more(live_env: None, players: list[Client]) -> None:
    ada, bob = players[0], players[1]
    game_id = create_game(ada)
    watching, bobs = opened(ada), opened(bob)
    for connection in (watching, bobs):
        assert frame(connection, {"action": "watch", "game_id": game_id})["type"] == "watching"

    assert bob.delete("/players/me").status == 204

    assert _deliver(game_id, 4, [ada.player_id]) == {"batchItemFailures": []}
    posted = _posted()
    assert watching in posted
    assert bobs not in posted
    # Its next frame is told to reconnect, which its dead token cannot do.
    assert frame(bobs, {"action": "watch", "game_id": game_id})["code"] == "connection_unknown"
    assert bob.post("/live/tickets").status == 401


def test_a_ticket_taken_before_the_delete_opens_nothing_after_it(
    live_env: None, players: list[Client]
) -> None:
    bob = players[1]
    ticket = ticket_of(bob)
    assert bob.delete("/players/me").status == 204
    refused = live.lambda_handler(connect_event("c_late=", f"ticket={ticket}", [], "dev"), FakeContext())
    assert (refused["statusCode"], json.loads(refused["body"])["code"]) == (401, "player_unknown")
    # Nothing was left recorded under the connection: its frames name no player.
    assert frame("c_late=", {"action": "watch", "game_id": create_game(players[0])})["code"] == (
        "connection_unknown"
    )


def _personal(owner: Client) -> Client:
    reply = owner.post("/players/me/personal-tokens", {"name": "live bot", "scopes": ["games:read"]})
    assert reply.status == 201, reply.raw
    return Client("bot", token=reply.body["token"], player_id=owner.player_id)


def test_a_ticket_whose_session_or_personal_token_was_revoked_since_opens_nothing(
    live_env: None, players: list[Client]
) -> None:
    ada, bob = players[0], players[1]
    game_id = create_game(ada)
    bot = _personal(ada)
    by_bot, by_bob = ticket_of(bot), ticket_of(bob)
    assert ada.delete(f"/players/me/personal-tokens/{bot.token.split('.')[1]}").status == 204
    assert bob.delete("/players/me/tokens/current").status == 204
    for connection, ticket in (("c_bot=", by_bot), ("c_bob=", by_bob)):
        refused = live.lambda_handler(connect_event(connection, f"ticket={ticket}", [], "dev"), FakeContext())
        assert (refused["statusCode"], json.loads(refused["body"])["code"]) == (401, "credential_revoked")
        # Nothing was left recorded under the connection: its frames name no player.
        assert frame(connection, {"action": "watch", "game_id": game_id})["code"] == "connection_unknown"


def test_revoking_a_credential_forgets_the_sockets_it_opened(live_env: None, players: list[Client]) -> None:
    ada, bob = players[0], players[1]
    game_id = lobby([ada, bob], visibility="private")
    bot = _personal(bob)
    by_bob, by_bot, by_ada = opened(bob), opened(bot), opened(ada)
    for connection in (by_bob, by_bot, by_ada):
        assert frame(connection, {"action": "watch", "game_id": game_id})["type"] == "watching"

    assert bob.delete(f"/players/me/personal-tokens/{bot.token.split('.')[1]}").status == 204
    assert bob.delete("/players/me/tokens/current").status == 204

    assert _deliver(game_id, 9, [ada.player_id, bob.player_id]) == {"batchItemFailures": []}
    posted = _posted()
    assert by_ada in posted
    assert by_bob not in posted
    assert by_bot not in posted
    for connection in (by_bob, by_bot):
        assert frame(connection, {"action": "watch", "game_id": game_id})["code"] == "connection_unknown"


def test_a_player_who_left_a_private_game_hears_nothing_more_of_it(
    live_env: None, players: list[Client]
) -> None:
    ada, xavier = players[0], players[1]
    game_id = lobby([ada, xavier], visibility="private")
    hosts, leavers = opened(ada), opened(xavier)
    for connection in (hosts, leavers):
        assert frame(connection, {"action": "watch", "game_id": game_id})["type"] == "watching"
    assert xavier.post(f"/games/{game_id}/leave").status == 200
    assert frame(opened(xavier), {"action": "watch", "game_id": game_id})["code"] == "not_a_member"

    assert _deliver(game_id, 7, [ada.player_id]) == {"batchItemFailures": []}
    assert _deliver(game_id, 0, [], kind="talk", message_id="m_1") == {"batchItemFailures": []}
    posted = _posted()
    assert hosts in posted
    assert leavers not in posted


SAMPLES = Path(__file__).resolve().parents[3] / "events"


def test_the_sample_events_are_accepted_as_they_are(live_env: None) -> None:
    def sample(name: str) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
        return loaded

    assert (
        live.lambda_handler(sample("live/connect.json"), FakeContext())["statusCode"] == 401
    )  # a placeholder
    # Its connection was never opened: the frame is told to reconnect, and the close forgets nothing.
    answer = live.lambda_handler(sample("live/message.json"), FakeContext())
    assert json.loads(answer["body"])["code"] == "connection_unknown"
    assert live.lambda_handler(sample("live/disconnect.json"), FakeContext())["statusCode"] == 200
    told = live_delivery.lambda_handler(sample("live_delivery/change.json"), FakeContext())
    assert told == {"batchItemFailures": []}


def test_a_refused_handshake_is_a_problem_and_the_cap_says_when_to_retry(
    live_env: None, players: list[Client]
) -> None:
    ada = players[0]
    for _ in range(MOST_CONNECTIONS_PER_PLAYER):
        opened(ada)
    over = live.lambda_handler(connect_event("c_over=", f"ticket={ticket_of(ada)}", [], "dev"), FakeContext())
    assert over["statusCode"] == 429
    assert over["headers"] == {"Content-Type": "application/problem+json", "Retry-After": "60"}
    assert json.loads(over["body"])["code"] == "too_many_connections"
    bad = live.lambda_handler(connect_event("c_bad=", "ticket=nope", [], "dev"), FakeContext())
    assert bad["headers"]["Content-Type"] == "application/problem+json"
    assert (json.loads(bad["body"])["status"], bad["statusCode"]) == (401, 401)
