"""app.account: the export of everything stored about a player, on the in-memory doubles and on DynamoDB
(moto) alike; and the account the erasure flow starts from (tests/app/flows/test_erase_account.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.account import data as account_data
from app.account.schemas import account_export
from app.core.records import GameRecord, PlayerRecord, Visibility
from app.games import inbox
from app.games import play as games
from app.notify.devices.channels import Platform
from app.notify.ports import Device
from app.notify.web_push.ports import WebPushSubscription
from app.players import accounts
from app.players.accounts import SignedIn
from app.services import Services
from app.talk import messages
from app.webhooks.records import WebhookRecord
from dixit.bots import RandomBot, next_mover
from dixit.moves import Join, Start
from dixit.state import Phase
from dixit.views import view_for
from tests.fakes.push import MemoryNotifier
from tests.support.stream import GameStream

ENDPOINT = "arn:aws:sns:us-east-1:000000000000:endpoint/fcm/dixit/1"

PUSH_ENDPOINT = "https://push.example.com/send/ada-browser"
PUSH_AUTH = "c2VjcmV0LWF1dGgtMTIzNA"


@pytest.fixture
def services(services: Services) -> Services:
    # Push endpoints in memory, whichever store: the delete must reach them through the channel.
    return replace(services, push=MemoryNotifier())


def _register(services: Services, count: int) -> list[tuple[PlayerRecord, str]]:
    return [accounts.register(services, f"Player {n}") for n in range(count)]


def _signed(services: Services, token: str) -> SignedIn:
    return accounts.authenticate(services, f"Bearer {token}")


def _write(services: Services, played: games.Played) -> GameRecord:
    """The move's record, and its inbox entries as the stream consumer would write them."""
    assert played.record is not None
    if played.previous is not None:
        inbox.refresh(services.inbox, played.previous.state, played.record.state, played.record.updated_at)
    return played.record


def _lobby(services: Services, seats: list[PlayerRecord], **rules: Any) -> GameRecord:
    host, *guests = seats
    record = games.create_game(
        services, host, rules="classic", decks=None, max_players=None, visibility=Visibility.PUBLIC,
        target_score=rules.get("target_score"),
    ).record  # fmt: skip
    assert record is not None
    for guest in guests:
        record = _write(
            services, games.play(services, guest, record.game_id, Join(guest.player_id, guest.name))
        )
    return record


def _started(services: Services, seats: list[PlayerRecord], **rules: Any) -> GameRecord:
    record = _lobby(services, seats, **rules)
    return _write(services, games.play(services, seats[0], record.game_id, Start(seats[0].player_id)))


def _play_out(services: Services, seats: list[PlayerRecord], record: GameRecord, seed: int = 1) -> GameRecord:
    """Bots play every seat still held by someone (by id) until the game ends."""
    by_id = {p.player_id: p for p in seats}
    bots = {pid: RandomBot(pid, seed * 100 + i) for i, pid in enumerate(record.state.player_ids)}
    while (mover := next_mover(record.state)) is not None:
        move = bots[mover].choose(view_for(record.state, mover))
        assert move is not None
        record = _write(services, games.play(services, by_id[mover], record.game_id, move))
    return record


@pytest.fixture
def account(services: Services) -> dict[str, Any]:
    """Player 0 with a finished game, a running one, a lobby they host, a device, a webhook and mutes."""
    stream = GameStream(services)
    (me, token), (a, _), (b, _), (c, _) = _register(services, 4)
    done = _play_out(services, [me, a, b], _started(services, [me, a, b], target_score=3))
    stream.deliver()  # the finished game's round history, written by the stream consumer
    assert done.state.phase is Phase.FINISHED
    live = _started(services, [me, a, b])
    waiting = _lobby(services, [me, c])
    services.notifications.put_device(me.player_id, Device("phone-1", Platform.FCM, ENDPOINT, "2026-03-01"))
    services.notifications.set_game_muted(me.player_id, live.game_id, True)
    services.web_push_subscriptions.put_web_push_subscription(
        me.player_id,
        WebPushSubscription("browser-1", PUSH_ENDPOINT, "BP" + "A" * 85, PUSH_AUTH, None, "2026-03-01"),
    )
    hook = WebhookRecord(
        "wh_0000000000000001", me.player_id, "https://x.example", ("turn.owed",), "whsec_s", "t"
    )
    assert services.webhooks.create_webhook(hook, max_per_player=5)
    # What they said at two tables, and what another player said at one of them.
    messages.post_message(services, me, waiting.game_id, "Who else is coming?")
    messages.post_message(services, me, done.game_id, "Well played")
    messages.post_message(services, a, done.game_id, "Thanks!")
    return {"me": me, "token": token, "others": [a, b, c], "done": done, "live": live, "lobby": waiting}


def test_the_export_names_every_game_and_only_the_rounds_played(
    services: Services, account: dict[str, Any]
) -> None:
    data = account_data.export(services, _signed(services, account["token"]))
    games_by_id = {g.record.game_id: g for g in data.games}
    assert set(games_by_id) == {account["done"].game_id, account["live"].game_id, account["lobby"].game_id}
    rounds = services.games.list_rounds(account["done"].game_id)
    assert games_by_id[account["done"].game_id].rounds == rounds
    assert rounds
    assert games_by_id[account["lobby"].game_id].rounds == []
    assert [d.device_id for d in data.devices] == ["phone-1"]
    assert [w.endpoint for w in data.web_push_subscriptions] == [PUSH_ENDPOINT]
    assert data.preferences.muted_games == {account["live"].game_id}
    assert sorted(m.text or "" for m in data.messages) == ["Well played", "Who else is coming?"]
    assert {m.author_id for m in data.messages} == {account["me"].player_id}
    text = account_export(data, services.images).model_dump_json()
    assert PUSH_ENDPOINT in text
    assert "Well played" in text
    assert "Thanks!" not in text
    for hidden in ("whsec_s", ENDPOINT, account["token"], data.sessions[0].token_hash, PUSH_AUTH):
        assert hidden not in text
