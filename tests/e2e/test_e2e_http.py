"""End to end: `python -m local_stack serve` on free ports, a complete game played over real HTTP."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from card_art.render import render

from ..api.client import Client, Reply
from ..api.helpers import give_clue, storyteller, view
from ..api.json_bot import play_to_the_end
from ..local_stack.test_local_serve import Served, start_serve, stop


@dataclass
class HttpClient(Client):
    """The same player as tests/api, but talking HTTP to the local stack instead of calling the handler."""

    base_url: str = ""

    def _send(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Reply:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        for name, value in {"Content-Type": "application/json", **(headers or {})}.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return Reply(response.status, dict(response.headers.items()), response.read().decode())
        except urllib.error.HTTPError as error:
            return Reply(error.code, dict(error.headers.items()), error.read().decode())

    def register(self) -> HttpClient:
        reply = self._send("POST", "/players", {"name": self.name})
        assert reply.status == 201, reply.raw
        self.token, self.player_id = reply.body["token"], reply.body["player_id"]
        return self

    def get(
        self, path: str, *, headers: dict[str, str] | None = None, query: dict[str, str] | None = None
    ) -> Reply:
        return self._send("GET", path, headers=self.auth(headers))

    def post(
        self,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        raw_body: str | None = None,
    ) -> Reply:
        return self._send("POST", path, body, headers=self.auth(headers))

    def put(self, path: str, body: Any = None, *, headers: dict[str, str] | None = None) -> Reply:
        return self._send("PUT", path, body, headers=self.auth(headers))

    def delete(self, path: str, *, headers: dict[str, str] | None = None) -> Reply:
        return self._send("DELETE", path, headers=self.auth(headers))


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("e2e"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def test_four_players_play_a_whole_game_over_http_against_the_local_stack(stack: Served) -> None:
    players = [HttpClient(f"Player {i}", base_url=stack.api_url).register() for i in range(4)]
    host = players[0]
    created = host.post("/games", {"rules": "classic", "target_score": 12})
    assert created.status == 201, created.raw
    game_id = created.body["game_id"]
    for guest in players[1:]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    assert host.post(f"/games/{game_id}/start").status == 200

    final = play_to_the_end(players, game_id, seed=4)

    assert final["phase"] == "finished"
    top = max(p["score"] for p in final["players"])
    assert final["winners"] == [p["player_id"] for p in final["players"] if p["score"] == top]
    rounds = settled_rounds(host, game_id, final["last_round"]["number"])
    totals = {p["player_id"]: 0 for p in final["players"]}
    for result in rounds:
        for player_id, points in result["points"].items():
            totals[player_id] += points
    assert totals == {p["player_id"]: p["score"] for p in final["players"]}


def settled_rounds(client: HttpClient, game_id: str, count: int) -> list[dict[str, Any]]:
    """The game's history once it holds `count` rounds: GameStreamFunction writes each scored round from
    the table's stream a moment after the vote. Polled, with a bound, never timed."""
    for _ in range(300):
        rounds: list[dict[str, Any]] = client.get(f"/games/{game_id}/rounds").body["rounds"]
        if len(rounds) >= count:
            return rounds
        time.sleep(0.1)
    raise AssertionError(f"the history of {game_id} never reached {count} rounds: {rounds}")


def settled_inbox(client: HttpClient, game_id: str, version: int) -> dict[str, Any]:
    """The client's inbox entry for the game once it shows `version`: GameStreamFunction writes it from the
    table's stream a moment after the move. Polled, with a bound, never timed."""
    for _ in range(300):
        entries = {e["game_id"]: e for e in client.get("/players/me/games").body["games"]}
        if game_id in entries and entries[game_id]["version"] >= version:
            return entries[game_id]
        time.sleep(0.1)
    raise AssertionError(f"the inbox of {client.name} never reached version {version}: {entries}")


def test_the_inbox_catches_up_with_each_move_through_the_stream_consumer(stack: Served) -> None:
    players = [HttpClient(f"Inbox {i}", base_url=stack.api_url).register() for i in range(3)]
    host = players[0]
    game_id = host.post("/games", {}).body["game_id"]
    for guest in players[1:]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    assert host.post(f"/games/{game_id}/start").status == 200
    teller = storyteller(players, game_id)
    started = view(host, game_id)["version"]
    assert settled_inbox(teller, game_id, started)["your_turn"] is True

    give_clue(players, game_id)
    clued = view(host, game_id)
    for client in players:
        entry = settled_inbox(client, game_id, clued["version"])
        assert entry["version"] == clued["version"]
        assert entry["phase"] == "submitting"
        assert entry["your_turn"] is (client is not teller)
        assert (entry["deadline"] is None) is (client is teller)
        assert entry["waiting_for"] == [w["player_id"] for w in clued["round"]["waiting"]]


def test_official_card_images_come_through_the_local_gateway_never_the_twins_port(stack: Served) -> None:
    player = HttpClient("Viewer", base_url=stack.api_url).register()
    cards = player.get("/decks/base/cards").body["cards"]
    twin = stack.state()["aws_endpoint_url"]
    assert all(c["image_url"].startswith(f"{stack.api_url}/_local/card-art/") for c in cards), cards[0]
    assert not any(twin in c["image_url"] for c in cards)
    for card in (cards[0], cards[-1]):
        with urllib.request.urlopen(card["image_url"], timeout=10) as response:
            assert response.headers["Content-Type"] == "image/webp"
            assert response.read() == render(card["card_id"])  # the very bytes the stack seeded


def multipart(fields: dict[str, str], file: bytes) -> tuple[bytes, str]:
    boundary = "dixit-upload-boundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="card"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + file
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def photo(shade: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (360, 540), (shade, 120, 255 - shade)).save(out, "PNG")
    return out.getvalue()


def test_a_custom_deck_uploaded_through_presigned_posts_is_ingested_dealt_and_described(
    stack: Served,
) -> None:
    players = [HttpClient(f"Uploader {i}", base_url=stack.api_url).register() for i in range(3)]
    host = players[0]
    described = [f"our card {n}, a heron at dusk" for n in range(1, 41)]
    created = host.post("/decks", {"name": "Our cards", "card_count": 40, "descriptions": described})
    assert created.status == 201, created.raw
    deck_id = created.body["deck_id"]
    for n, form in enumerate(created.body["uploads"]):
        fields = {**form["fields"], "Content-Type": "image/png"}
        data = b"GIF89a not an image" if n == 0 else photo(n * 6)
        body, content_type = multipart(fields, data)
        request = urllib.request.Request(form["url"], data=body, method="POST")
        request.add_header("Content-Type", content_type)
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status in (200, 201, 204)

    def deck() -> dict[str, Any]:
        return host.get(f"/decks/{deck_id}").body

    # The ingest runs on S3's notification, in the background: wait (bounded) until no card is pending.
    for _ in range(300):
        if all(c["status"] != "pending" for c in deck()["cards"]):
            break
        time.sleep(0.1)
    cards = deck()["cards"]
    assert cards[0]["status"] == "rejected"
    assert cards[0]["reason"].startswith("unsupported_format")
    assert {c["status"] for c in cards[1:]} == {"ready"}
    assert host.post("/games", {"decks": [deck_id]}).body["code"] == "deck_not_ready"

    redo = created.body["uploads"][0]
    body, content_type = multipart({**redo["fields"], "Content-Type": "image/png"}, photo(3))
    request = urllib.request.Request(redo["url"], data=body, method="POST")
    request.add_header("Content-Type", content_type)
    urllib.request.urlopen(request, timeout=10).close()
    for _ in range(300):
        if deck()["ready"]:
            break
        time.sleep(0.1)
    assert deck()["ready"] is True

    game = host.post("/games", {"decks": [deck_id, "base"], "max_players": 3})
    assert game.status == 201, game.raw
    game_id = game.body["game_id"]
    for guest in players[1:]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    assert host.post(f"/games/{game_id}/start").status == 200
    final = play_to_the_end(players, game_id, seed=5)
    assert final["phase"] == "finished"
    played = [c for r in settled_rounds(host, game_id, final["last_round"]["number"]) for c in r["cards"]]
    ours = [c for c in played if c["card_id"].startswith(f"{deck_id}-")]
    assert ours
    assert all(c["alt"] == described[int(c["card_id"][-3:]) - 1] for c in ours)
    with urllib.request.urlopen(ours[0]["image_url"], timeout=10) as response:
        image = Image.open(io.BytesIO(response.read()))
        assert (image.format, image.size) == ("WEBP", (400, 600))


WALKTHROUGH = Path(__file__).resolve().parents[2] / "examples" / "walkthrough.sh"


def test_the_readme_shows_the_walkthrough_script_verbatim() -> None:
    script = WALKTHROUGH.read_text().split("set -euo pipefail\n", 1)[1]
    assert script in (WALKTHROUGH.parents[1] / "README.md").read_text()


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough is written for curl")
def test_the_readme_walkthrough_plays_a_round_against_the_local_stack(stack: Served) -> None:
    done = subprocess.run(
        ["bash", str(WALKTHROUGH)],
        env={**os.environ, "DIXIT_API": stack.api_url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("('storytelling', ['p_")
    assert lines[1:6] == ["submitting", "submitting", "voting", "voting", "storytelling"]
    assert '"points"' in done.stdout


def wait_for_line(stack: Served, *needles: str, timeout: float = 60.0) -> str:
    """The first line of the stack's output holding every needle; the timeout only stops a hung test."""
    deadline = time.monotonic() + timeout
    while True:
        for line in stack.stdout.read_text(errors="replace").splitlines():
            if all(needle in line for needle in needles):
                return line
        if time.monotonic() > deadline:
            raise AssertionError(f"no line with {needles} in:\n{stack.logs()}")
        time.sleep(0.2)


def test_the_stack_feeds_the_table_stream_to_notify_and_prints_your_turn_for_topic_and_device(
    stack: Served,
) -> None:
    players = [HttpClient(f"Notified {i}", base_url=stack.api_url).register() for i in range(3)]
    host = players[0]
    device = players[1]._send(
        "PUT",
        "/players/me/devices/phone-1",
        {"platform": "fcm", "push_token": "local-token-1"},
        headers=players[1].auth(None),
    )
    assert device.status in (200, 201), device.raw
    game_id = host.post("/games", {"rules": "classic", "target_score": 12}).body["game_id"]
    for guest in players[1:]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    assert host.post(f"/games/{game_id}/start").status == 200
    storyteller = host.get(f"/games/{game_id}").body["round"]["storyteller_id"]
    others = [p.player_id for p in players if p.player_id != storyteller]

    told = wait_for_line(stack, "[sns]", "kind=your_turn", f"player_id={storyteller}")
    assert "topic=" in told
    assert game_id in told
    # Only the storyteller owes a move after the start: the others are not told yet.
    early = [line for line in lines(stack, "[sns]") if game_id in line]
    assert not any(f"player_id={other}" in line for other in others for line in early)

    teller = next(p for p in players if p.player_id == storyteller)
    hand = teller.get(f"/games/{game_id}").body["you"]["hand"]
    clue = teller.post(f"/games/{game_id}/clue", {"card_id": hand[0]["card_id"], "clue": "a quiet harbour"})
    assert clue.status == 200, clue.raw
    for other in others:
        wait_for_line(stack, "[sns]", "kind=your_turn", f"player_id={other}", game_id)
    pushed = wait_for_line(stack, "[push]", f"player_id={players[1].player_id}", "kind=your_turn", game_id)
    assert "platform=GCM" in pushed


def lines(stack: Served, prefix: str) -> list[str]:
    return [line for line in stack.stdout.read_text(errors="replace").splitlines() if line.startswith(prefix)]
