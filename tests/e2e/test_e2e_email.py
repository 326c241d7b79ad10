"""End to end over the local stack: a turn mail with its game link and both unsubscribe headers in
/_local/mail, its one-click unsubscribe, and a five-game digest as one mail (DigestFunction invoked)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from ..api.helpers import lobby, storyteller
from ..local_stack.test_local_serve import Served, child_env, get, start_serve, stop
from .test_e2e_http import HttpClient

Mail = dict[str, Any]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("e2e-email"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def mailbox(stack: Served) -> list[Mail]:
    status, _, body = get(f"{stack.api_url}/_local/mail?limit=200")
    assert status == 200
    mails: list[Mail] = json.loads(body)
    return mails


def wait_for_mail(stack: Served, found: Callable[[Mail], bool], timeout: float = 90.0) -> Mail:
    """The newest mail `found` accepts; the timeout only stops a hung test."""
    deadline = time.monotonic() + timeout
    while True:
        for mail in mailbox(stack):
            if found(mail):
                return mail
        if time.monotonic() > deadline:
            raise AssertionError(f"no such mail in {[m['subject'] for m in mailbox(stack)]}\n{stack.logs()}")
        time.sleep(0.3)


def confirmed(stack: Served, name: str, address: str) -> HttpClient:
    player = HttpClient(name, base_url=stack.api_url).register()
    assert player.post("/players/me/email", {"email": address}).status == 202
    code_mail = wait_for_mail(
        stack, lambda m: m["to"] == address and m["subject"].startswith("Confirm your email")
    )
    code = code_mail["subject"].rsplit(" ", 1)[-1]
    assert player.post("/players/me/email/verify", {"code": code}).status == 200
    return player


def email_kinds(player: HttpClient) -> list[str]:
    # An empty PUT changes nothing and answers every preference.
    reply = player._send("PUT", "/players/me/notifications", {}, player.auth())
    assert reply.status == 200, reply.raw
    kinds: list[str] = reply.body["channels"]["email"]
    return kinds


def test_a_turn_mail_carries_the_game_link_and_both_unsubscribe_headers_and_one_click_works(
    stack: Served,
) -> None:
    players = [confirmed(stack, f"Mailed {n}", f"mailed{n}@example.com") for n in range(3)]
    game_id = lobby(players)
    assert players[0].post(f"/games/{game_id}/start").status == 200
    teller = storyteller(players, game_id)
    address = f"mailed{players.index(teller)}@example.com"  # type: ignore[arg-type]
    mail = wait_for_mail(stack, lambda m: m["to"] == address and m["subject"].startswith("Your turn"))
    assert f"{stack.api_url}/play/{game_id}" in mail["text"]
    assert f'href="{stack.api_url}/play/{game_id}"' in mail["html"]
    headers = mail["headers"]
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = headers["List-Unsubscribe"].strip("<>")
    assert link.startswith(f"{stack.api_url}/notifications/unsubscribe?token=")

    status, _, page = get(link)  # a link scanner: shown, nothing changed
    assert status == 200
    assert json.loads(page)["unsubscribed"] is False
    assert email_kinds(teller) == ["your_turn", "reminder", "game_over"]
    request = urllib.request.Request(link, data=b"List-Unsubscribe=One-Click", method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200
        assert json.loads(answer.read())["unsubscribed"] is True
    assert email_kinds(teller) == []


def test_five_games_waiting_make_one_digest_mail_listing_all_five(stack: Served, tmp_path: Any) -> None:
    bea = confirmed(stack, "Bea", "bea@example.com")
    guests = [HttpClient(f"Guest {n}", base_url=stack.api_url).register() for n in range(2)]
    now = datetime.now(UTC)
    reply = bea._send(
        "PUT", "/players/me/notifications", {"digest": now.hour, "time_zone": "UTC"}, bea.auth()
    )
    assert reply.status == 200, reply.raw
    # Private: a host holds at most 3 public lobbies (docs/api.md). Each waits on its host to start it.
    games = [lobby([bea, *guests], visibility="private") for _ in range(5)]
    deadline = time.monotonic() + 60
    while not all(g["your_turn"] for g in bea.get("/players/me/games").body["games"]):
        assert time.monotonic() < deadline, "the inbox never caught up"
        time.sleep(0.3)
    event = tmp_path / "digest.json"
    event.write_text(
        json.dumps(
            {
                "version": "0",
                "id": "digest-e2e",
                "detail-type": "Scheduled Event",
                "source": "aws.events",
                "account": "123456789012",
                "time": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "region": "us-east-1",
                "resources": ["arn:aws:events:us-east-1:123456789012:rule/DigestFunctionDailyDigest"],
                "detail": {},
            }
        )
    )
    ran = subprocess.run(
        [sys.executable, "-m", "local_stack", "invoke", "DigestFunction", "-e", str(event),
         "--state-file", str(stack.state_file)],
        capture_output=True, text=True, env=child_env(), timeout=120, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["sent"] == 1, ran.stdout
    digest = wait_for_mail(
        stack, lambda m: m["to"] == "bea@example.com" and "waiting for you" in m["subject"]
    )
    assert digest["subject"] == "5 Dixit games waiting for you"
    assert all(f"{stack.api_url}/play/{game_id}" in digest["text"] for game_id in games)
    assert digest["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    digests = [m for m in mailbox(stack) if m["to"] == "bea@example.com" and "waiting" in m["subject"]]
    assert len(digests) == 1
