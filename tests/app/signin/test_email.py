"""app.signin.email: attaching an address, and signing in with it on another device, as an attacker would
try them: wrong codes, used codes, old codes, one address's code on another, and many requests."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import AppError, Conflict, InvalidInput, RateLimited
from app.core.records import PlayerRecord
from app.core.settings import AppSettings
from app.notify.email.mail import Mail, MailNotConfigured, Suppressed
from app.players import accounts
from app.services import Services
from app.signin import email
from tests.fakes.mail import RecordingMailer
from tests.support.clock import Clock

SOURCE = "203.0.113.7"


def mailer(services: Services) -> RecordingMailer:
    assert isinstance(services.mailer, RecordingMailer)
    return services.mailer


def code_in(mail: Mail) -> str:
    found = re.search(r"code is: (\d{6})", mail.text)
    assert found, mail.text
    return found.group(1)


def last_code(services: Services, to: str) -> str:
    return code_in(mailer(services).to(to)[-1])


def register(services: Services, name: str = "Ada") -> tuple[PlayerRecord, str]:
    return accounts.register(services, name)


def me(services: Services, token: str) -> PlayerRecord:
    return accounts.authenticate(services, f"Bearer {token}").player


def with_address(services: Services, address: str, name: str = "Ada") -> tuple[PlayerRecord, str]:
    """A player who attached and confirmed `address`."""
    player, token = register(services, name)
    email.attach_email(services, player, address)
    email.confirm_email(services, me(services, token), last_code(services, address))
    return me(services, token), token


def limit_of(call: Any, *args: Any) -> str | None:
    """The code of the limit `call` hit, None when it went through."""
    try:
        call(*args)
    except RateLimited as limited:
        return limited.code
    return None


def refused(call: Any, *args: Any) -> AppError:
    with pytest.raises(AppError) as raised:
        call(*args)
    return raised.value


def every_stored_value(services: Services) -> str:
    store: Any = services.emails
    return repr((store.owners, store.verifications, store.sign_in_codes, store.slots, store.table.players))


# Attaching an address


def test_attaching_mails_a_code_and_a_link_and_the_address_waits_for_it(services: Services) -> None:
    player, token = register(services)
    sent = email.attach_email(services, player, "Ada@Example.com")
    assert sent == email.Attaching(email="ada@example.com", expires_at="2026-03-01T12:15:00Z")
    (mail,) = mailer(services).to("ada@example.com")
    code = code_in(mail)
    assert f"https://dixit.example/#/verify-email/{code}" in mail.text
    waiting = me(services, token)
    assert (waiting.email, waiting.pending_email) == ("", "ada@example.com")

    confirmed = email.confirm_email(services, waiting, code)
    assert (confirmed.email, confirmed.pending_email) == ("ada@example.com", "")
    assert me(services, token) == confirmed


def test_a_new_address_replaces_the_old_only_once_it_is_confirmed(services: Services) -> None:
    player, token = with_address(services, "ada@example.com")
    email.attach_email(services, player, "ada@new.example")
    assert me(services, token).email == "ada@example.com"
    email.confirm_email(services, me(services, token), last_code(services, "ada@new.example"))
    assert me(services, token).email == "ada@new.example"
    # The old address is free again: another player may confirm it.
    bob, _ = with_address(services, "ada@example.com", "Bob")
    assert bob.email == "ada@example.com"


def test_an_address_another_player_confirmed_is_refused_at_confirmation_not_before(
    services: Services,
) -> None:
    with_address(services, "ada@example.com")
    bob, token = register(services, "Bob")
    # Asking is answered as for any address: nothing tells Bob it is taken.
    assert email.attach_email(services, bob, "ADA@example.com").email == "ada@example.com"
    taken = refused(
        email.confirm_email, services, me(services, token), last_code(services, "ada@example.com")
    )
    assert isinstance(taken, Conflict)
    assert taken.code == "email_taken"
    assert me(services, token).email == ""


def test_a_confirmation_code_is_single_use_and_worn_out_by_five_wrong_tries(services: Services) -> None:
    player, token = register(services)
    email.attach_email(services, player, "ada@example.com")
    code = last_code(services, "ada@example.com")
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(5):
        assert refused(email.confirm_email, services, player, wrong).code == "code_invalid"
    assert refused(email.confirm_email, services, player, code).code == "code_expired"
    assert me(services, token).email == ""

    email.attach_email(services, player, "ada@example.com")
    code = last_code(services, "ada@example.com")
    email.confirm_email(services, me(services, token), code)
    assert refused(email.confirm_email, services, me(services, token), code).code == "code_invalid"


def test_an_old_confirmation_code_is_refused(services: Services, clock: Clock) -> None:
    player, _ = register(services)
    email.attach_email(services, player, "ada@example.com")
    clock.advance(minutes=15)
    error = refused(email.confirm_email, services, player, last_code(services, "ada@example.com"))
    assert isinstance(error, InvalidInput)
    assert error.code == "code_expired"


def test_attaching_needs_mail_and_a_mailable_address(services: Services) -> None:
    player, _ = register(services)
    mailer(services).suppressed.add("bounced@example.com")
    assert isinstance(refused(email.attach_email, services, player, "bounced@example.com"), Suppressed)
    off = replace(services, mailer=RecordingMailer(configured=False))
    assert isinstance(refused(email.attach_email, off, player, "ada@example.com"), MailNotConfigured)


def test_confirmation_codes_are_limited_per_player_a_day(services: Services, clock: Clock) -> None:
    player, _ = register(services)
    for n in range(5):
        email.attach_email(services, player, f"ada{n}@example.com")
    limited = refused(email.attach_email, services, player, "ada9@example.com")
    assert isinstance(limited, RateLimited)
    assert limited.code == "too_many_codes"
    assert 3_600 < limited.retry_after <= 86_400
    clock.advance(days=1)
    email.attach_email(services, player, "ada9@example.com")


def test_an_address_gets_three_confirmation_codes_a_day_and_stops_if_it_never_confirms(
    services: Services, clock: Clock
) -> None:
    """#37: POST /players/me/email mailed 5 codes an hour to any address at all, 120 a day."""
    sent = 0
    for day in range(10):
        for n in range(4):
            limited = limit_of(
                email.attach_email, services, register(services, f"P{day}-{n}")[0], "victim@example.com"
            )
            assert limited in (None, "too_many_codes")
            sent += limited is None
        assert sent <= 3 * (day + 1)
        clock.advance(days=1)
    assert len(mailer(services).to("victim@example.com")) == sent == 6


def test_the_ladder_of_sign_in_codes_grows_the_wait_and_never_shuts_the_door(
    services: Services, clock: Clock
) -> None:
    with_address(services, "ada@example.com")
    started = clock.now
    email.request_sign_in(services, "ada@example.com", SOURCE)
    waits = []
    for _ in range(30):
        try:
            email.request_sign_in(services, "ada@example.com", "198.51.100.1")
        except RateLimited as limited:
            waits.append((limited.code, limited.retry_after))
            clock.advance(seconds=limited.retry_after)
    assert {code for code, _ in waits} == {"too_many_codes"}
    assert all(0 < wait <= 3_600 for _, wait in waits)
    # One a minute, then ten minutes' worth, then the hour's: the waits grow, and never past the hour.
    assert waits[0][1] <= 60
    assert max(wait for _, wait in waits) > 600
    hours = (clock.now - started).total_seconds() / 3_600
    sign_in_mails = [m for m in mailer(services).to("ada@example.com") if "sign" in m.subject.lower()]
    assert len(sign_in_mails) <= 5 * (int(hours) + 1)


def test_sign_in_requests_are_limited_per_source(services: Services, clock: Clock) -> None:
    for n in range(20):
        email.request_sign_in(services, f"p{n}@example.com", SOURCE)
    limited = refused(email.request_sign_in, services, "new@example.com", SOURCE)
    assert isinstance(limited, RateLimited)
    assert limited.code == "too_many_requests"
    assert limited.retry_after == 3_600
    clock.advance(hours=1)
    email.request_sign_in(services, "new@example.com", SOURCE)


def test_wrong_tries_from_many_sources_kill_the_code_never_the_address(
    services: Services, clock: Clock
) -> None:
    """#37: 10 wrong tries from 10 sources locked the owner out for the hour, right code or not."""
    with_address(services, "ada@example.com")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    for n in range(30):
        with pytest.raises(InvalidInput):
            email.verify_sign_in(services, "ada@example.com", "000000", "x", f"198.51.100.{n}")
    clock.advance(minutes=1)
    email.request_sign_in(services, "ada@example.com", SOURCE)
    player, _, _ = email.verify_sign_in(
        services, "ada@example.com", last_code(services, "ada@example.com"), "x", SOURCE
    )
    assert player.name == "Ada"


def test_without_a_web_client_the_mail_carries_the_code_alone(services: Services) -> None:
    bare = replace(services, settings=AppSettings(sign_in_floor_seconds=0))
    player, _ = register(bare)
    email.attach_email(bare, player, "ada@example.com")
    (mail,) = mailer(bare).to("ada@example.com")
    assert "http" not in mail.text
    assert "href" not in mail.html
    assert "Enter it in the app." in mail.text


# Signing in


def test_a_confirmed_address_signs_in_on_another_device(services: Services) -> None:
    ada, _ = with_address(services, "ada@example.com")
    sent = email.request_sign_in(services, "Ada@Example.com", SOURCE)
    assert sent == email.SignInSent(sent_to="Ada@Example.com", expires_in=600)
    mail = mailer(services).to("ada@example.com")[-1]
    code = code_in(mail)
    assert f"https://dixit.example/#/sign-in/ada%40example.com/{code}" in mail.text
    assert "10 minutes" in mail.text
    player, session, token = email.verify_sign_in(services, "ADA@example.com", code, "tablet", SOURCE)
    assert player.player_id == ada.player_id
    assert session.device == "tablet"
    assert me(services, token).player_id == ada.player_id
    assert len(services.sessions.list_sessions(ada.player_id)) == 2


def test_an_unknown_or_unconfirmed_address_is_answered_the_same_and_gets_no_mail(services: Services) -> None:
    with_address(services, "ada@example.com")
    pending, _ = register(services, "Bob")
    email.attach_email(services, pending, "bob@example.com")  # never confirmed
    before = len(mailer(services).sent)
    for address in ("nobody@example.com", "bob@example.com"):
        assert email.request_sign_in(services, address, SOURCE) == email.SignInSent(address, 600)
    assert len(mailer(services).sent) == before
    # The same item is written for every address, so the store does not tell either.
    store: Any = services.emails
    assert {email.address_id(a) for a in ("nobody@example.com", "bob@example.com")} <= set(
        store.sign_in_codes
    )


def test_a_suppressed_address_is_answered_as_if_mailed(services: Services) -> None:
    with_address(services, "ada@example.com")
    mailer(services).suppressed.add("ada@example.com")
    assert email.request_sign_in(services, "ada@example.com", SOURCE).expires_in == 600


def test_the_sixth_try_fails_even_with_the_right_code(services: Services) -> None:
    with_address(services, "ada@example.com")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    code = last_code(services, "ada@example.com")
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(5):
        assert (
            refused(email.verify_sign_in, services, "ada@example.com", wrong, "x", SOURCE).code
            == "code_invalid"
        )
    assert (
        refused(email.verify_sign_in, services, "ada@example.com", code, "x", SOURCE).code == "code_expired"
    )


def test_a_sign_in_code_works_once(services: Services) -> None:
    with_address(services, "ada@example.com")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    code = last_code(services, "ada@example.com")
    email.verify_sign_in(services, "ada@example.com", code, "tablet", SOURCE)
    assert (
        refused(email.verify_sign_in, services, "ada@example.com", code, "x", SOURCE).code == "code_invalid"
    )


def test_a_sign_in_code_expires_after_ten_minutes(services: Services, clock: Clock) -> None:
    with_address(services, "ada@example.com")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    clock.advance(minutes=10)
    code = last_code(services, "ada@example.com")
    assert (
        refused(email.verify_sign_in, services, "ada@example.com", code, "x", SOURCE).code == "code_expired"
    )


def test_a_code_for_one_address_never_signs_in_another(services: Services) -> None:
    with_address(services, "ada@example.com")
    with_address(services, "bob@example.com", "Bob")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    email.request_sign_in(services, "bob@example.com", SOURCE)
    ada_code = last_code(services, "ada@example.com")
    error = refused(email.verify_sign_in, services, "bob@example.com", ada_code, "x", SOURCE)
    assert error.code == "code_invalid"
    # Bob's own code still works (Ada's try counted as one wrong try of it).
    player, _, _ = email.verify_sign_in(
        services, "bob@example.com", last_code(services, "bob@example.com"), "x", SOURCE
    )
    assert player.name == "Bob"


def test_a_new_code_replaces_the_one_before(services: Services, clock: Clock) -> None:
    with_address(services, "ada@example.com")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    first = last_code(services, "ada@example.com")
    clock.advance(minutes=1)
    email.request_sign_in(services, "ada@example.com", SOURCE)
    second = last_code(services, "ada@example.com")
    if first != second:
        assert (
            refused(email.verify_sign_in, services, "ada@example.com", first, "x", SOURCE).code
            == "code_invalid"
        )
    email.verify_sign_in(services, "ada@example.com", second, "x", SOURCE)


def test_no_code_and_no_address_is_ever_stored_in_clear_but_the_players_own(services: Services) -> None:
    with_address(services, "ada@example.com")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    email.request_sign_in(services, "nobody@example.com", SOURCE)
    stored = every_stored_value(services)
    for mail in mailer(services).sent:
        assert code_in(mail) not in stored
    assert "nobody@example.com" not in stored
    assert SOURCE not in stored


def test_tries_are_limited_per_source(services: Services) -> None:
    with_address(services, "ada@example.com")
    email.request_sign_in(services, "ada@example.com", SOURCE)
    for _ in range(50):
        with pytest.raises(InvalidInput):
            email.verify_sign_in(services, "ada@example.com", "000000", "x", "198.51.100.1")
    limited = refused(email.verify_sign_in, services, "ada@example.com", "000000", "x", "198.51.100.1")
    assert isinstance(limited, RateLimited)
    assert limited.code == "too_many_attempts"


def test_asking_is_held_to_the_time_floor(services: Services) -> None:
    waits: list[float] = []
    floored = replace(services, settings=AppSettings(sign_in_floor_seconds=0.5), pause=waits.append)
    email.request_sign_in(floored, "nobody@example.com", SOURCE)
    (wait,) = waits
    assert 0.4 < wait <= 0.5
