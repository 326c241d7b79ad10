"""The daily digest's table talk (app.notify.email.digest_talk): each game's messages the player has not
read, their own and muted players' left out, counted from how far they read, bounded, and off on demand."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from app.core.records import Membership, PlayerRecord, Waiting
from app.core.settings import AppSettings
from app.notify.email.digest import preferences_changed, send_digests
from app.notify.email.digest_talk import unread_text
from app.players import accounts
from app.services import Services
from app.talk.records import MessageRecord
from dixit.state import Phase
from tests.fakes.mail import RecordingMailer
from tests.support.clock import Clock
from tests.support.services import AllMemoryPorts, memory_services

WEB = "https://dixit.example"
MARCH_2 = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # 08:00 in Paris
WAITING, TALKING, QUIET = "g_0000000000000001", "g_0000000000000002", "g_0000000000000003"


@pytest.fixture
def ports() -> AllMemoryPorts:
    return AllMemoryPorts()


@pytest.fixture
def services(ports: AllMemoryPorts, clock: Clock) -> Services:
    settings = AppSettings(web_base_url=WEB, unsubscribe_secret="s3cret")
    return memory_services(ports, settings=settings, clock=clock)


def seat(ports: AllMemoryPorts, player: PlayerRecord, game_id: str, *, your_turn: bool) -> None:
    ports.table.entries.setdefault(player.player_id, {})[game_id] = Membership(
        player_id=player.player_id,
        game_id=game_id,
        phase=Phase.VOTING,
        your_turn=your_turn,
        deadline=int(MARCH_2.timestamp()) + 3_600,
        round_number=2,
        waiting=(Waiting(player.player_id, "Ada", "vote", int(MARCH_2.timestamp())),),
        player_count=4,
        end_reason=None,
        updated_at="2026-03-01T12:00:00Z",
        title="Friday family game" if game_id == TALKING else None,
    )


def ada_with_games(
    services: Services, ports: AllMemoryPorts, *, digest_talk: bool = True, waiting: bool = True
) -> PlayerRecord:
    ada = accounts.register(services, "Ada")[0]
    ada = replace(ada, email="ada@example.com")
    ports.table.players[ada.player_id] = ada
    if waiting:
        seat(ports, ada, WAITING, your_turn=True)
    seat(ports, ada, TALKING, your_turn=False)
    seat(ports, ada, QUIET, your_turn=False)
    before = services.notifications.preferences(ada.player_id)
    after = replace(before, digest_hour=8, time_zone="Europe/Paris", digest_talk=digest_talk)
    services.notifications.save_preferences(ada.player_id, after)
    preferences_changed(services, ada.player_id, before, after)
    return ada


def say(services: Services, game_id: str, n: int, author: str) -> str:
    message_id = f"m_{1_772_400_000_000 + n:013d}{n:08x}"
    services.talk.put_message(
        MessageRecord(game_id, message_id, author, "X", "hi", 2, "storytelling", "2026-03-01T12:00:00.000Z"),
        expires_at=None,
    )
    return message_id


def mails(services: Services) -> RecordingMailer:
    assert isinstance(services.mailer, RecordingMailer)
    return services.mailer


def digest(services: Services) -> str:
    report = send_digests(services.at(lambda: MARCH_2), MARCH_2, remaining_ms=lambda: 60_000)
    assert report.sent == 1, report
    return mails(services).sent[-1].text


def test_each_game_counts_the_talk_not_yet_read_from_where_the_player_read_it(
    services: Services, ports: AllMemoryPorts
) -> None:
    ada = ada_with_games(services, ports)
    say(services, WAITING, 1, "p_bob")
    read = say(services, WAITING, 2, "p_cy")
    say(services, WAITING, 3, "p_bob")
    say(services, WAITING, 4, ada.player_id)  # her own: no news to her
    say(services, WAITING, 5, "p_cy")
    for n in range(6, 9):
        say(services, TALKING, n, "p_dan")
    say(services, TALKING, 9, "p_eve")  # muted: not counted
    services.talk.mute_player(ada.player_id, "p_eve", at="2026-03-01T12:00:00.000Z")
    assert services.talk.mark_read(ada.player_id, WAITING, read)

    text = digest(services)
    assert re.search(r"1\. A 4-player game, round 2 voting, due by .*; 2 unread messages", text), text
    assert "Table talk you have not read yet:" in text
    assert "Friday family game: 3 unread messages" in text
    assert f"/play/{QUIET}" not in text  # nothing to read there, and it waits on others


def test_unread_talk_alone_is_worth_a_digest(services: Services, ports: AllMemoryPorts) -> None:
    ada_with_games(services, ports, waiting=False)
    say(services, TALKING, 1, "p_bob")
    text = digest(services)
    assert mails(services).sent[-1].subject == "Table talk in 1 of your Dixit games"
    assert "Friday family game: 1 unread message" in text


def test_a_player_who_turned_digest_talk_off_hears_nothing_of_it(
    services: Services, ports: AllMemoryPorts
) -> None:
    ada_with_games(services, ports, digest_talk=False, waiting=False)
    say(services, TALKING, 1, "p_bob")
    say(services, WAITING, 2, "p_bob")
    report = send_digests(services.at(lambda: MARCH_2), MARCH_2, remaining_ms=lambda: 60_000)
    assert (report.nothing_waiting, report.sent) == (1, 0)
    seat(ports, ports.table.players[next(iter(ports.table.players))], WAITING, your_turn=True)
    text = digest(services.at(lambda: MARCH_2))
    assert "unread" not in text


def test_a_busy_tables_count_is_bounded() -> None:
    assert unread_text(1) == "1 unread message"
    assert unread_text(99) == "99 unread messages"
    assert unread_text(100) == "99+ unread messages"
