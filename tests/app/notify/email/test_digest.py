"""app.notify.email.digest over the doubles: the index follows the preferences, one mail lists every waiting
game, once per local day, reading only this hour's keys, and summer time moves the hour."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from app.core.records import Membership, PlayerRecord, Waiting
from app.core.settings import AppSettings
from app.notify.email import unsubscribe
from app.notify.email.digest import preferences_changed, send_digests
from app.notify.email.digest_schedule import DIGEST_SHARDS, next_due
from app.notify.preferences import NotificationPreferences
from app.players import accounts
from app.services import Services
from dixit.state import Phase
from tests.fakes.mail import RecordingMailer
from tests.fakes.mail_ledger import MemoryDigestIndex
from tests.support.clock import Clock
from tests.support.services import AllMemoryPorts, memory_services

WEB = "https://dixit.example"
PARIS = "Europe/Paris"
MARCH_2 = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # 08:00 in Paris (CET, UTC+1)


@pytest.fixture
def ports() -> AllMemoryPorts:
    return AllMemoryPorts()


@pytest.fixture
def services(ports: AllMemoryPorts, clock: Clock) -> Services:
    settings = AppSettings(web_base_url=WEB, unsubscribe_secret="s3cret")
    return memory_services(ports, settings=settings, clock=clock)


def index(services: Services) -> MemoryDigestIndex:
    assert isinstance(services.digests, MemoryDigestIndex)
    return services.digests


def sent(services: Services) -> RecordingMailer:
    assert isinstance(services.mailer, RecordingMailer)
    return services.mailer


def wants_digest(services: Services, player: PlayerRecord, hour: int | None, time_zone: str = PARIS) -> None:
    before = services.notifications.preferences(player.player_id)
    after = replace(before, digest_hour=hour, time_zone=time_zone)
    services.notifications.save_preferences(player.player_id, after)
    preferences_changed(services, player.player_id, before, after)


def player_with_games(
    services: Services, ports: AllMemoryPorts, waiting: int, other: int = 0
) -> PlayerRecord:
    player = accounts.register(services, "Ada")[0]
    player = replace(player, email="ada@example.com")
    ports.table.players[player.player_id] = player
    for n in range(waiting + other):
        game_id = f"g_{n:016x}"
        ports.table.entries.setdefault(player.player_id, {})[game_id] = Membership(
            player_id=player.player_id,
            game_id=game_id,
            phase=Phase.VOTING,
            your_turn=n < waiting,
            deadline=int(MARCH_2.timestamp()) + 3_600 * (n + 1),
            round_number=2,
            waiting=(Waiting(player.player_id, "Ada", "vote", int(MARCH_2.timestamp())),),
            player_count=4,
            end_reason=None,
            updated_at="2026-03-01T12:00:00Z",
        )
    return player


def run(services: Services, at: datetime) -> dict[str, object]:
    return send_digests(services.at(lambda: at), at, remaining_ms=lambda: 60_000).to_dict()


def test_a_digest_hour_files_the_player_under_its_utc_hour_and_turning_it_off_removes_them(
    services: Services,
) -> None:
    ada = accounts.register(services, "Ada")[0]
    wants_digest(services, ada, 8)
    entry = index(services).entry(ada.player_id)
    assert entry is not None
    assert (entry.hour, entry.time_zone, entry.utc_hour) == (8, PARIS, 7)  # March 1 is winter time
    wants_digest(services, ada, 8, "America/New_York")
    entry = index(services).entry(ada.player_id)
    assert entry is not None
    assert entry.utc_hour == 13
    wants_digest(services, ada, None)
    assert index(services).entry(ada.player_id) is None


def test_five_waiting_games_make_one_mail_listing_all_five_and_only_this_hours_keys_are_read(
    services: Services, ports: AllMemoryPorts
) -> None:
    ada = player_with_games(services, ports, waiting=5, other=2)
    wants_digest(services, ada, 8)
    report = run(services, MARCH_2.replace(minute=3))
    assert report["sent"] == 1
    (mail,) = sent(services).sent
    assert mail.to == "ada@example.com"
    assert mail.subject == "5 Dixit games waiting for you"
    links = re.findall(rf"{WEB}/play/(g_[0-9a-f]+)", mail.text)
    assert sorted(links) == [f"g_{n:016x}" for n in range(5)]  # not the two that wait on others
    assert "(Europe/Paris)" in mail.text
    headers = dict(mail.headers)
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert headers["List-Unsubscribe"].startswith(f"<{WEB}/notifications/unsubscribe?token=")
    assert index(services).queried == [(7, shard) for shard in range(DIGEST_SHARDS)]


def test_a_digest_goes_once_per_local_day_however_often_the_job_runs(
    services: Services, ports: AllMemoryPorts
) -> None:
    ada = player_with_games(services, ports, waiting=2)
    wants_digest(services, ada, 8)
    run(services, MARCH_2)
    assert run(services, MARCH_2.replace(minute=40))["already_sent"] == 1
    assert run(services, MARCH_2.replace(hour=8))["players_due"] == 0  # another hour: not even read
    assert len(sent(services).sent) == 1
    run(services, MARCH_2.replace(day=3))
    assert len(sent(services).sent) == 2


def test_nothing_is_sent_when_no_game_waits_or_the_address_is_unverified(
    services: Services, ports: AllMemoryPorts
) -> None:
    ada = player_with_games(services, ports, waiting=0, other=3)
    wants_digest(services, ada, 8)
    assert run(services, MARCH_2)["nothing_waiting"] == 1
    ports.table.players[ada.player_id] = replace(ada, email="")
    ports.table.entries[ada.player_id] = {}
    player_with_games(services, ports, waiting=1)  # a player with a game, but no digest wanted
    assert run(services, MARCH_2.replace(day=3))["sent"] == 0
    assert sent(services).sent == []


def test_summer_time_moves_the_digest_to_its_new_utc_hour_and_no_day_is_missed(
    services: Services, ports: AllMemoryPorts, clock: Clock
) -> None:
    clock.now = datetime(2026, 3, 28, 6, 0, tzinfo=UTC)
    ada = player_with_games(services, ports, waiting=1)
    wants_digest(services, ada, 8)
    run(services, datetime(2026, 3, 28, 7, 0, tzinfo=UTC))  # Saturday 08:00 CET
    entry = index(services).entry(ada.player_id)
    assert entry is not None
    assert entry.utc_hour == 6  # Sunday 08:00 is CEST, UTC+2
    run(services, datetime(2026, 3, 29, 6, 0, tzinfo=UTC))
    assert len(sent(services).sent) == 2


def test_unsubscribing_from_the_digest_turns_it_off_and_leaves_the_index(
    services: Services, ports: AllMemoryPorts
) -> None:
    ada = player_with_games(services, ports, waiting=1)
    wants_digest(services, ada, 8)
    run(services, MARCH_2)
    token = re.search(r"token=([^>]+)>", dict(sent(services).sent[0].headers)["List-Unsubscribe"])
    assert token is not None
    assert unsubscribe.unsubscribe(services, token.group(1)) is unsubscribe.Scope.DIGEST
    assert services.notifications.preferences(ada.player_id).digest_hour is None
    assert index(services).entry(ada.player_id) is None


def test_the_next_due_hour_of_a_local_hour_is_the_next_time_it_comes_round() -> None:
    after = datetime(2026, 3, 2, 7, 30, tzinfo=UTC)
    assert next_due(PARIS, 8, after) == datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # this very hour
    assert next_due(PARIS, 7, after) == datetime(2026, 3, 3, 6, 0, tzinfo=UTC)
    assert next_due("Asia/Tokyo", 0, after) == datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
    assert NotificationPreferences().digest_hour is None


def test_erasing_an_account_takes_the_player_out_of_the_digest_index(services: Services) -> None:
    from app.flows.erase_account import erase_account
    from app.players.accounts import authenticate

    ada, token = accounts.register(services, "Ada")
    wants_digest(services, ada, 8)
    assert index(services).entry(ada.player_id) is not None
    erase_account(services, authenticate(services, f"Bearer {token}"))
    assert index(services).entry(ada.player_id) is None
