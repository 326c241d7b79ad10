"""End to end: a webhook on `python -m local_stack serve` receives signed events while a game is played.

The receiver is a real HTTP server on 127.0.0.1 (loopback http is allowed on the local stack alone). It
fails its first answers, so the deliveries also show that a receiver down for a while gets them later.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from app.feed.events import EVENT_ADAPTER, EVENT_TYPES

from ..api.client import Client
from ..api.json_bot import JsonBot
from ..app.webhooks.test_signing import readme_verify
from ..local_http import Quiet, serving
from ..local_stack.test_local_serve import Served, start_serve, stop
from .test_e2e_http import HttpClient

WAIT_SECONDS = 90.0  # only stops a hung test; nothing here is timed


@dataclass
class Delivery:
    headers: dict[str, str]
    body: bytes

    @property
    def event(self) -> dict[str, Any]:
        event: dict[str, Any] = json.loads(self.body)
        return event


@dataclass
class Receiver:
    failures_left: int
    url: str = ""
    answered: list[tuple[int, Delivery]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def accepted(self) -> list[Delivery]:
        with self.lock:
            return [delivery for status, delivery in self.answered if status == 200]

    def wait_for(self, wanted: Any, what: str) -> list[Delivery]:
        deadline = time.monotonic() + WAIT_SECONDS
        while not wanted(self.accepted()):
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {WAIT_SECONDS} s; got {self.answered}")
            time.sleep(0.2)
        return self.accepted()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    # Retries a second apart instead of 30 s, so a failing receiver is retried within the test.
    running = start_serve(tmp_path_factory.mktemp("e2e-webhooks"), env={"WEBHOOK_RETRY_BASE_SECONDS": "1"})
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(failures_left=2)

    class Handler(Quiet, BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with state.lock:
                status = 500 if state.failures_left > 0 else 200
                state.failures_left -= 1
                headers = {name.lower(): value for name, value in self.headers.items()}
                state.answered.append((status, Delivery(headers, body)))
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

    with serving(Handler) as base:
        state.url = f"{base}/dixit"
        yield state


def play_rounds(players: list[HttpClient], game_id: str, rounds: int, seen_cards: set[str]) -> None:
    """Bots play until `rounds` rounds are revealed; every card id any player held goes to `seen_cards`."""

    def observe(_: Client, view: dict[str, Any]) -> None:
        if view.get("you"):
            seen_cards.update(card["card_id"] for card in view["you"]["hand"])

    bots = {p.player_id: JsonBot(p, seed=i, observe=observe) for i, p in enumerate(players)}
    for _ in range(200):
        view = bots[players[0].player_id].view(game_id)
        if view["round"]["number"] > rounds:
            return
        for player_id in view["round"]["waiting_for"]:
            bots[player_id].act(game_id)
    raise AssertionError("the rounds did not end")


def test_a_webhook_on_the_local_stack_gets_signed_events_of_a_game_and_outlasts_a_failing_receiver(
    stack: Served, receiver: Receiver
) -> None:
    players = [HttpClient(f"Hooked {i}", base_url=stack.api_url).register() for i in range(3)]
    subscriber = players[1]
    created = subscriber.post("/players/me/webhooks", {"url": receiver.url, "events": list(EVENT_TYPES)})
    assert created.status == 201, created.raw
    secret, webhook_id = created.body["secret"], created.body["webhook_id"]

    host = players[0]
    game_id = host.post("/games", {"rules": "classic", "target_score": 30}).body["game_id"]
    for guest in players[1:]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    assert host.post(f"/games/{game_id}/start").status == 200
    seen_cards: set[str] = set()
    play_rounds(players, game_id, 2, seen_cards)

    wanted = {"player.joined", "game.started", "turn.owed", "round.revealed"}

    def every_kind_and_two_reveals(got: list[Delivery]) -> bool:
        # The first deliveries were refused and come again after a backoff, possibly after the reveals:
        # wait for those too, or a busy machine reads the receiver before a retry got in.
        kinds = {d.event["type"] for d in got}
        with receiver.lock:
            refused = {d.headers["dixit-delivery"] for status, d in receiver.answered if status == 500}
        came_back = refused <= {d.headers["dixit-delivery"] for d in got}
        reveals = sum(1 for d in got if d.event["type"] == "round.revealed")
        return wanted <= kinds and reveals >= 2 and came_back

    delivered = receiver.wait_for(every_kind_and_two_reveals, "every kind of event and two reveals")

    verify = readme_verify()
    for delivery in delivered:
        assert verify(secret, delivery.headers["dixit-signature"], delivery.body)
        assert not verify("whsec_wrong", delivery.headers["dixit-signature"], delivery.body)
        event = delivery.event
        assert EVENT_ADAPTER.validate_python(event).recipient_id == subscriber.player_id
        assert delivery.headers["dixit-event"] == event["type"]
        assert event["game_id"] == game_id
        if event["type"] != "round.revealed":
            # No hand, hidden card or vote reaches an event before its reveal.
            assert not any(card in delivery.body.decode() for card in seen_cards), event
            assert "voter_ids" not in delivery.body.decode()
    kinds = [d.event["type"] for d in delivered]
    assert wanted <= set(kinds)
    owed = [d.event for d in delivered if d.event["type"] == "turn.owed"]
    assert all(e["deadline"] for e in owed)
    assert any(e["you_owe"] for e in owed)

    # The receiver failed its first two answers: those deliveries came again, with the same id, and got in.
    with receiver.lock:
        failed_ids = {d.headers["dixit-delivery"] for status, d in receiver.answered if status == 500}
    assert failed_ids
    assert failed_ids <= {d.headers["dixit-delivery"] for d in delivered}
    # Each delivery is accepted once: the stream and the queue do not duplicate what succeeded.
    accepted_ids = [d.headers["dixit-delivery"] for d in delivered]
    assert len(accepted_ids) == len(set(accepted_ids))

    # The feed replays the same events, as the subscriber sees them.
    feed = subscriber.get(f"/games/{game_id}/events")
    assert feed.status == 200, feed.raw
    feed_ids = [e["id"] for e in feed.body["events"]]
    assert {d.event["id"] for d in delivered} <= set(feed_ids)

    health = subscriber.get("/players/me/webhooks").body
    (listed,) = [w for w in health["webhooks"] if w["webhook_id"] == webhook_id]
    assert listed["health"]["disabled"] is False
    assert secret not in json.dumps(health)
    assert any(
        f"-> {webhook_id}" in line and "done" in line
        for line in stack.stdout.read_text(errors="replace").splitlines()
        if line.startswith("[webhook]")
    )
