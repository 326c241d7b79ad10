"""Nothing secret reaches a log at any level: a whole game played with every logger at DEBUG.

Secrets: each token, its secret part and its stored hash, the seed of the deck, and any hand.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from app.core.telemetry import QUIET_LIBRARIES, logger
from app.games import state_codec

from ..client import Client, call
from ..helpers import started
from ..json_bot import play_to_the_end


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        self.lines.append(f"{record.name} {text} {record.__dict__}")


@pytest.fixture
def debug_logs() -> Iterator[Capture]:
    """Every record of every logger, the root's and those that do not propagate, with all at DEBUG."""
    import handlers.api  # noqa: F401  (its loggers exist before they are captured)

    capture = Capture()
    root = logging.getLogger()
    loggers = [root, logging.getLogger(logger.name)] + [
        found for found in root.manager.loggerDict.values()
        if isinstance(found, logging.Logger) and not found.propagate
    ]  # fmt: skip
    levels = {found: found.level for found in loggers}
    service_level = logger.log_level
    for found in loggers:
        found.addHandler(capture)
    root.setLevel(logging.DEBUG)
    logger.setLevel("DEBUG")
    try:
        yield capture
    finally:
        for found, level in levels.items():
            found.removeHandler(capture)
            found.setLevel(level)
        logger.setLevel(service_level)


def _secrets(clients: list[Client], game_id: str, table: Any, hands: list[list[str]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for client in clients:
        secret = client.token.rpartition(".")[2]
        found[f"token of {client.name}"] = client.token
        found[f"secret of {client.name}"] = secret
        found[f"token hash of {client.name}"] = hashlib.sha256(secret.encode()).hexdigest()
    stored = table.get_item(Key={"pk": f"GAME#{game_id}", "sk": "STATE"})["Item"]["state"]
    found["seed"] = str(state_codec.unpack(stored.value).seed)
    return found


def test_a_whole_game_at_debug_logs_no_token_hash_hand_or_seed(
    players: list[Client], table: Any, debug_logs: Capture
) -> None:
    clients = players[:3]
    hands: list[list[str]] = []

    def observe(_: Client, view: dict[str, Any]) -> None:
        if view.get("you") and view["you"]["hand"]:
            hands.append([card["card_id"] for card in view["you"]["hand"]])

    game_id = started(clients)
    final = play_to_the_end(clients, game_id, seed=7, observe=observe)
    assert final["phase"] == "finished"
    assert debug_logs.lines, "nothing was captured: the test would prove nothing"
    assert any("DEBUG" in line or "debug" in line.lower() for line in debug_logs.lines)

    text = "\n".join(debug_logs.lines)
    for what, secret in _secrets(clients, game_id, table, hands).items():
        assert secret not in text, f"the {what} is in a log"
    assert hands
    for line in debug_logs.lines:
        for held in hands:
            assert not all(card in line for card in held), f"a hand is in a log: {line[:200]}"


def test_the_aws_sdk_loggers_stay_at_warning_when_everything_else_logs_at_debug() -> None:
    assert {"boto3", "botocore", "urllib3"} <= set(QUIET_LIBRARIES)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)  # unset, a library would inherit the root's WARNING and prove nothing
    try:
        for name in QUIET_LIBRARIES:
            assert logging.getLogger(name).getEffectiveLevel() == logging.WARNING, name
    finally:
        root.setLevel(level)


def test_the_session_routes_at_debug_log_no_token_secret_or_hash(
    players: list[Client], table: Any, debug_logs: Capture
) -> None:
    from app import bootstrap
    from app.players.accounts import open_session

    ada = Client("Ada")
    made = call("POST", "/players", body={"name": "Ada", "device": "Ada's phone"})
    ada.token, ada.player_id = made.body["token"], made.body["player_id"]
    services = bootstrap.services()
    player = services.players.get_player(ada.player_id)
    assert player is not None
    tablet = Client("Ada", token=open_session(services, player, "tablet")[1], player_id=ada.player_id)
    laptop = Client("Ada", token=open_session(services, player, "laptop")[1], player_id=ada.player_id)
    tokens = [ada.token, tablet.token, laptop.token]

    assert ada.get("/players/me/sessions").status == 200
    keyed = {"Idempotency-Key": "rotate-1"}
    rotated = ada.post("/players/me/tokens", headers=keyed).body["token"]
    assert ada.post("/players/me/tokens", headers=keyed).body["token"] == rotated  # the lost answer's retry
    assert ada.get("/players/me").status == 401  # the replaced token elsewhere
    assert (
        call("POST", "/players/me/tokens", headers={**ada.auth(), "Idempotency-Key": "other"}).status == 401
    )
    ada.token = rotated
    tokens.append(ada.post("/players/me/tokens").body["token"])
    ada.token = tokens[-1]
    assert call("PATCH", "/players/me", body={"name": "Ada L."}, headers=ada.auth()).status == 200
    assert ada.delete(f"/players/me/sessions/{laptop.token.split('.')[1]}").status == 204
    assert ada.delete("/players/me/sessions").status == 204
    assert tablet.get("/players/me").status == 401
    assert ada.delete("/players/me/tokens/current").status == 204
    tokens.append(rotated)
    assert debug_logs.lines, "nothing was captured: the test would prove nothing"

    text = "\n".join(debug_logs.lines)
    for token in tokens + [p.token for p in players[:2]]:
        secret = token.rpartition(".")[2]
        for what, value in {
            "token": token,
            "secret": secret,
            "token hash": hashlib.sha256(secret.encode()).hexdigest(),
        }.items():
            assert value not in text, f"a {what} is in a log"


def test_the_email_routes_at_debug_log_no_address_code_link_or_token(
    aws: None, table: Any, debug_logs: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.mail import recorded_mail

    mail = recorded_mail(monkeypatch)
    mail.mailer.suppressed.add("bounced@example.com")
    ada = Client("Ada").register()
    assert ada.post("/players/me/email", {"email": "Ada@Example.com"}).status == 202
    confirm = mail.code_for("ada@example.com")
    assert (
        ada.post("/players/me/email/verify", {"code": "000000" if confirm != "000000" else "111111"}).status
        == 422
    )
    assert ada.post("/players/me/email/verify", {"code": confirm}).status == 200
    assert ada.post("/players/me/email", {"email": "bounced@example.com"}).status == 422
    assert call("POST", "/sessions", body={"email": "stranger@example.com"}).status == 202
    assert call("POST", "/sessions", body={"email": "ada@example.com"}).status == 202
    sign_in = mail.code_for("ada@example.com")
    wrong = {"email": "ada@example.com", "code": "000000" if sign_in != "000000" else "111111"}
    assert call("POST", "/sessions/verify", body=wrong).status == 422
    signed = call("POST", "/sessions/verify", body={"email": "ada@example.com", "code": sign_in})
    assert signed.status == 201
    token = signed.body["token"]
    assert debug_logs.lines, "nothing was captured: the test would prove nothing"

    text = "\n".join(debug_logs.lines).lower()
    secrets = {
        "address": "ada@example.com",
        "unknown address": "stranger@example.com",
        "suppressed address": "bounced@example.com",
        "confirmation code": confirm,
        "sign-in code": sign_in,
        "link": "https://dixit.example/#/",
        "token": token.lower(),
        "token secret": token.rpartition(".")[2].lower(),
    }
    for what, value in secrets.items():
        assert value not in text, f"the {what} is in a log"


def test_the_personal_token_routes_at_debug_log_no_token_secret_or_hash(
    players: list[Client], debug_logs: Capture
) -> None:
    ada = players[0]
    made = ada.post("/players/me/personal-tokens", {"name": "my bot", "scopes": ["games:read", "games:play"]})
    assert made.status == 201, made.raw
    bot = Client("bot", token=made.body["token"], player_id=ada.player_id)
    assert bot.get("/players/me/games").status == 200
    assert call("PATCH", "/players/me", body={"name": "M"}, headers=bot.auth()).status == 403
    assert ada.get("/players/me/personal-tokens").status == 200
    assert ada.delete(f"/players/me/personal-tokens/{made.body['token_id']}").status == 204
    assert bot.get("/players/me/games").status == 401
    assert debug_logs.lines, "nothing was captured: the test would prove nothing"

    text = "\n".join(debug_logs.lines)
    secret = bot.token.rpartition(".")[2]
    for what, value in {
        "personal token": bot.token,
        "its secret": secret,
        "its hash": hashlib.sha256(secret.encode()).hexdigest(),
    }.items():
        assert value not in text, f"the {what} is in a log"
