"""app.notify.email.channel through Delivery: who gets which mail, the 12-hour cap, replays, suppression."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from app.core.records import PlayerRecord, Visibility
from app.core.settings import AppSettings
from app.games import play as games
from app.notify.delivery import Delivery
from app.notify.email import unsubscribe
from app.notify.email.channel import EmailChannel, EmailOutcome
from app.notify.email.mail import MailUnavailable
from app.notify.messages import Kind, Notification, nudge, reminder
from app.notify.preferences import Channel
from app.players import accounts
from app.services import Services
from dixit.moves import GiveClue, Join, Start, Submit
from dixit.state import GameState, Phase
from tests.fakes.mail import RecordingMailer
from tests.fakes.mail_ledger import MemoryMailLedger
from tests.support.clock import Clock
from tests.support.services import memory_services

WEB = "https://dixit.example"
SETTINGS = AppSettings(web_base_url=WEB, unsubscribe_secret="s3cret")


@pytest.fixture
def services(clock: Clock) -> Services:
    return memory_services(clock=clock, settings=SETTINGS)


def mailer_of(services: Services) -> RecordingMailer:
    assert isinstance(services.mailer, RecordingMailer)
    return services.mailer


def with_address(services: Services, player: PlayerRecord, address: str) -> PlayerRecord:
    table = services.players.table  # type: ignore[attr-defined]
    table.players[player.player_id] = replace(table.players[player.player_id], email=address)
    return table.players[player.player_id]


def started(services: Services, count: int = 3) -> tuple[list[PlayerRecord], GameState]:
    seats = [accounts.register(services, name)[0] for name in ("Ada", "Bob", "Cy", "Di")[:count]]
    record = games.create_game(
        services, seats[0], rules="classic", decks=None, max_players=None, target_score=None,
        visibility=Visibility.PRIVATE,
    ).record  # fmt: skip
    for guest in seats[1:]:
        games.play(services, guest, record.game_id, Join(guest.player_id, guest.name),
                   invite_code=record.invite_code)  # fmt: skip
    state = games.play(services, seats[0], record.game_id, Start(seats[0].player_id)).record.state
    seats = [with_address(services, p, f"{p.name.lower()}@example.com") for p in seats]
    return seats, state


def storyteller(seats: list[PlayerRecord], state: GameState) -> PlayerRecord:
    assert state.round is not None
    return next(p for p in seats if p.player_id == state.round.storyteller_id)


def your_turn(state: GameState, player: PlayerRecord) -> Notification:
    round_number = None if state.round is None else state.round.number
    return Notification(
        Kind.YOUR_TURN,
        state.game_id,
        player.player_id,
        occasion=str(state.version),
        phase=state.phase.value,
        round_number=round_number,
    )


def test_your_turn_mails_the_verified_address_with_the_link_the_deadline_and_both_unsubscribe_headers(
    services: Services,
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    services.notifications.save_preferences(
        teller.player_id,
        replace(services.notifications.preferences(teller.player_id), time_zone="Asia/Tokyo"),
    )
    Delivery.of(services).deliver(your_turn(state, teller))
    (mail,) = mailer_of(services).sent
    assert mail.to == f"{teller.name.lower()}@example.com"
    # Fixed wording, the move owed, then the game's players in quotes.
    others = " and ".join(f"“{p.name}”" for p in seats if p is not teller)
    assert mail.subject == f"Your turn in Dixit: give the clue (with {others})"
    assert f"{WEB}/play/{state.game_id}" in mail.text
    assert f'href="{WEB}/play/{state.game_id}"' in mail.html
    assert "give a clue" in mail.text
    assert "(Asia/Tokyo)" in mail.text
    assert all(p.name in mail.text for p in seats if p is not teller)
    headers = dict(mail.headers)
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = re.fullmatch(
        r"<(https://dixit\.example/notifications/unsubscribe\?token=[^>]+)>", headers["List-Unsubscribe"]
    )
    assert url is not None
    assert url.group(1) in mail.text
    # Never a card of the hand: the storyteller's cards are theirs to see in the game, not in a mail.
    assert not any(card in mail.text or card in mail.html for card in state.hands[teller.player_id])


def test_a_player_without_a_verified_address_gets_no_mail(services: Services) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    table = services.players.table  # type: ignore[attr-defined]
    table.players[teller.player_id] = replace(teller, email="", pending_email="unconfirmed@example.com")
    assert EmailChannel(services).send(your_turn(state, teller)) is EmailOutcome.NO_ADDRESS
    assert mailer_of(services).sent == []
    # ... and a nudge's answer says so: the email channel does not reach them.
    assert not EmailChannel(services).reaches(your_turn(state, teller))
    other = next(p for p in seats if p is not teller)
    assert EmailChannel(services).reaches(your_turn(state, other))


def test_one_turn_mail_per_player_per_game_per_12_hours_whatever_the_mix(
    services: Services, clock: Clock
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    channel = EmailChannel(services)
    deadline = "2026-03-02T12:00:00Z"
    assert channel.send(your_turn(state, teller)) is EmailOutcome.SENT
    clock.advance(hours=6)
    assert channel.send(reminder(state, teller.player_id, deadline)) is EmailOutcome.LIMITED
    other = next(p for p in seats if p is not teller)
    assert channel.send(nudge(state, teller.player_id, by=other.player_id, at="t1")) is EmailOutcome.LIMITED
    clock.advance(hours=6)
    assert channel.send(nudge(state, teller.player_id, by=other.player_id, at="t2")) is EmailOutcome.SENT
    (_, second) = mailer_of(services).sent
    assert second.subject.startswith("Reminder:")
    assert f"{other.name} nudged you" in second.text


def test_a_replayed_notification_is_mailed_once_and_another_games_turn_still_goes(services: Services) -> None:
    seats, state = started(services)
    _, _other_game = started(services)
    teller = storyteller(seats, state)
    channel = EmailChannel(services)
    assert channel.send(your_turn(state, teller)) is EmailOutcome.SENT
    assert channel.send(your_turn(state, teller)) is EmailOutcome.LIMITED
    assert len(mailer_of(services).sent) == 1
    game_over = Notification(Kind.GAME_OVER, state.game_id, teller.player_id, occasion="99")
    assert channel.send(game_over) is EmailOutcome.STALE  # the game is not over: nothing to tell


def test_a_failed_send_is_counted_and_leaves_the_slot_free_for_its_retry(services: Services) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)

    class Failing(RecordingMailer):
        def send(self, mail: object) -> None:
            raise MailUnavailable()

    failing = replace(services, mailer=Failing())
    assert EmailChannel(failing).send(your_turn(state, teller)) is EmailOutcome.FAILED
    assert EmailChannel(services).send(your_turn(state, teller)) is EmailOutcome.SENT


def test_a_suppressed_address_is_skipped_and_one_ses_refuses_is_remembered(services: Services) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    ledger = services.mail_ledger
    assert isinstance(ledger, MemoryMailLedger)
    mailer_of(services).suppressed.add(teller.email)
    assert EmailChannel(services).send(your_turn(state, teller)) is EmailOutcome.SUPPRESSED
    assert ledger.address_suppressed(teller.email)
    mailer_of(services).suppressed.clear()
    assert EmailChannel(services).send(your_turn(state, teller)) is EmailOutcome.SUPPRESSED


def test_a_player_who_chose_no_turn_mail_gets_none_but_still_hears_the_game_end(services: Services) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    prefs = services.notifications.preferences(teller.player_id)
    services.notifications.save_preferences(
        teller.player_id,
        replace(prefs, channels={**prefs.channels, Channel.EMAIL: frozenset({Kind.GAME_OVER})}),
    )
    Delivery.of(services).deliver(your_turn(state, teller))
    assert mailer_of(services).sent == []


def test_without_an_unsubscribe_secret_no_notification_mail_is_sent(services: Services) -> None:
    seats, state = started(services)
    unsigned = replace(services, settings=AppSettings(web_base_url=WEB))
    assert (
        EmailChannel(unsigned).send(your_turn(state, storyteller(seats, state)))
        is EmailOutcome.NOT_CONFIGURED
    )


def test_a_vote_mail_shows_each_card_the_player_may_vote_for_linking_to_it_and_nothing_secret(
    services: Services,
) -> None:
    seats, state = started(services, count=4)
    teller = storyteller(seats, state)
    game_id = state.game_id
    card = state.hands[teller.player_id][0]
    state = games.play(
        services, teller, game_id, GiveClue(teller.player_id, card, "A quiet harbour")
    ).record.state
    for player in seats:
        if player is not teller:
            state = games.play(
                services, player, game_id, Submit(player.player_id, (state.hands[player.player_id][0],))
            ).record.state
    assert state.phase is Phase.VOTING
    assert state.round is not None
    voter = next(p for p in seats if p is not teller)
    own = state.round.submissions[voter.player_id]
    EmailChannel(services).send(your_turn(state, voter))
    (mail,) = mailer_of(services).sent
    assert "“A quiet harbour”" in mail.text
    assert "Vote for" in mail.text
    others = [c for c in state.round.table if c not in own]
    assert all(f"{WEB}/play/{game_id}?card={c}" in mail.text for c in others)
    assert all(f'href="{WEB}/play/{game_id}?card={c}"' in mail.html for c in others)
    # Not their own card, not which card is the storyteller's, nothing of any hand.
    assert not any(c in mail.text or c in mail.html for c in own)
    assert "storyteller's card is" not in mail.text
    hands = {c for hand in state.hands.values() for c in hand}
    assert not any(c in mail.text or c in mail.html for c in hands)


def test_the_unsubscribe_link_in_a_mail_stops_every_notification_mail_for_that_player(
    services: Services,
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    EmailChannel(services).send(your_turn(state, teller))
    (mail,) = mailer_of(services).sent
    token = re.search(r"token=([^>\s]+)", dict(mail.headers)["List-Unsubscribe"])
    assert token is not None
    assert unsubscribe.preview(services, token.group(1)) is unsubscribe.Scope.EMAIL
    assert services.notifications.preferences(teller.player_id).channels[Channel.EMAIL]  # GET changes nothing
    unsubscribe.unsubscribe(services, token.group(1))
    assert services.notifications.preferences(teller.player_id).channels[Channel.EMAIL] == frozenset()


def test_a_turn_mail_waits_out_quiet_hours_and_goes_once_after_them(services: Services, clock: Clock) -> None:
    from datetime import UTC, datetime

    from app.notify import holding
    from dixit.quiet_hours import QuietHours

    clock.now = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)  # 22:00 in Paris
    seats, state = started(services)
    teller = storyteller(seats, state)
    prefs = services.notifications.preferences(teller.player_id)
    services.notifications.save_preferences(
        teller.player_id,
        replace(prefs, time_zone="Europe/Paris", quiet_hours=QuietHours.parse("22:00", "08:00")),
    )
    Delivery.of(services).deliver(your_turn(state, teller))
    assert mailer_of(services).sent == []
    clock.now = datetime(2026, 3, 3, 7, 5, tzinfo=UTC)  # 08:05 in Paris
    for _ in range(2):  # a second sweep finds nothing more to send
        holding.release(
            services, Delivery.of(services), services.now_epoch(), remaining_ms=lambda: 60_000, reserve_ms=0
        )
    (mail,) = mailer_of(services).sent
    assert f"{WEB}/play/{state.game_id}" in mail.text
    assert {"List-Unsubscribe", "List-Unsubscribe-Post"} <= dict(mail.headers).keys()
    assert "(Europe/Paris)" in mail.text
