"""Unsubscribe links are narrow credentials: they expire, and stop working once the player changes the
address they were mailed to or turns back on what they stopped (app.notify.email.unsubscribe)."""

from __future__ import annotations

import base64
import re

import pytest

from app.core.errors import InvalidInput
from app.notify import my_preferences
from app.notify.email import unsubscribe
from app.notify.email.channel import EmailChannel
from app.notify.preferences import Channel
from app.players import accounts
from app.services import Services
from tests.support.clock import Clock

from .test_channel import SETTINGS, mailer_of, started, storyteller, with_address, your_turn
from .test_channel import services as services  # the fixture: mail configured


def mailed_token(services: Services) -> tuple[str, str]:
    """A turn mail to the storyteller, and the token of its List-Unsubscribe link; (player id, token)."""
    seats, state = started(services)
    teller = storyteller(seats, state)
    EmailChannel(services).send(your_turn(state, teller))
    mail = mailer_of(services).sent[-1]
    found = re.search(r"token=([^>\s]+)", dict(mail.headers)["List-Unsubscribe"])
    assert found is not None
    return teller.player_id, found.group(1)


def refused(services: Services, token: str) -> str:
    with pytest.raises(InvalidInput) as error:
        unsubscribe.unsubscribe(services, token)
    return error.value.code


def email_on(services: Services, player_id: str) -> bool:
    return bool(services.notifications.preferences(player_id).channels[Channel.EMAIL])


def test_a_fresh_link_works_until_its_thirtieth_day_and_is_expired_after(
    services: Services, clock: Clock
) -> None:
    player_id, token = mailed_token(services)
    clock.advance(days=unsubscribe.LINK_LIFETIME.days)
    assert unsubscribe.preview(services, token) is unsubscribe.Scope.EMAIL
    clock.advance(seconds=1)
    for use in (unsubscribe.preview, unsubscribe.unsubscribe):
        with pytest.raises(InvalidInput) as error:
            use(services, token)
        assert error.value.code == "unsubscribe_link_expired"
    assert email_on(services, player_id)  # nothing changed


def test_a_link_stops_working_once_the_player_changes_their_address(services: Services) -> None:
    player_id, token = mailed_token(services)
    player = services.players.get_player(player_id)
    assert player is not None
    with_address(services, player, "new@example.com")
    assert refused(services, token) == "unsubscribe_link_outdated"
    assert email_on(services, player_id)


def test_a_link_followed_keeps_answering_but_not_once_the_player_turns_email_back_on(
    services: Services,
) -> None:
    player_id, token = mailed_token(services)
    assert unsubscribe.unsubscribe(services, token) is unsubscribe.Scope.EMAIL
    assert not email_on(services, player_id)
    assert unsubscribe.unsubscribe(services, token) is unsubscribe.Scope.EMAIL  # a retry: idempotent
    player = services.players.get_player(player_id)
    assert player is not None
    my_preferences.change(services, player, {"channels": {"email": ["your_turn"]}})
    assert email_on(services, player_id)
    # The old link (in an old mail, or a forwarded one) cannot stop what the player chose to hear again.
    assert refused(services, token) == "unsubscribe_link_outdated"
    assert email_on(services, player_id)
    # The next mail's link is the player's to use.
    _, fresh = mailed_token(services)
    assert unsubscribe.preview(services, fresh) is unsubscribe.Scope.EMAIL


def test_changing_other_preferences_leaves_a_link_working(services: Services) -> None:
    player_id, token = mailed_token(services)
    player = services.players.get_player(player_id)
    assert player is not None
    my_preferences.change(services, player, {"time_zone": "Europe/Paris", "digest": 8})
    assert unsubscribe.unsubscribe(services, token) is unsubscribe.Scope.EMAIL


def test_a_link_of_the_first_format_which_never_expired_is_refused_as_expired(services: Services) -> None:
    secret = SETTINGS.unsubscribe_secret
    player, _ = accounts.register(services, "Ada")
    payload = f"u1:{player.player_id}:email"
    old = f"{unsubscribe._b64(payload.encode())}.{unsubscribe._b64(unsubscribe._signature(secret, payload))}"
    assert refused(services, old) == "unsubscribe_link_expired"
    assert refused(services, old[:-2] + "AA") == "invalid_unsubscribe_token"  # altered: not genuine


def test_a_token_shows_neither_the_address_nor_the_generation(services: Services) -> None:
    _, token = mailed_token(services)
    payload = base64.urlsafe_b64decode(token.split(".")[0] + "==").decode()
    assert "@" not in payload
    assert "example.com" not in payload
