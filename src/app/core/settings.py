"""The one place configuration is read: environment variables, validated once per process.

A frozen record checked by a few lines of its own rather than a pydantic model: every request reads
these settings, and a model of some fifty constrained fields cost the API's cold start about 40 M
instructions to build (issue 36), for values that are whole numbers, flags and short strings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import field, fields
from functools import cache
from typing import Any

from dixit.lean_dataclass import dataclass


class SettingsError(ValueError):
    """An environment variable the settings refuse, each named with what is wrong with it."""


def setting(
    default: Any,
    *,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    min_length: int | None = None,
    pattern: str | None = None,
    secret: bool = False,
) -> Any:
    """A setting's default and what its variable's value must be (a secret is left out of the repr)."""
    rule = {"ge": ge, "gt": gt, "le": le, "min_length": min_length, "pattern": pattern}
    return field(default=default, repr=not secret, metadata={k: v for k, v in rule.items() if v is not None})


@dataclass(frozen=True, slots=True)
class AppSettings:
    """Each field is read from the environment variable of the same name in upper case."""

    table_name: str = setting("dixit-games", min_length=3)
    card_bucket: str = ""
    nudge_topic_arn: str = ""
    # SNS platform applications for mobile push; empty: devices of that platform cannot register.
    apns_platform_application_arn: str = ""
    apns_sandbox_platform_application_arn: str = ""
    fcm_platform_application_arn: str = ""
    # Email (app.notify.email.mail): the sender, a verified SES identity; empty: no email
    # (email_not_configured).
    email_from: str = setting("", pattern=r"^([^@\s]+@[^@\s]+)?$")
    # The SES configuration set every mail is sent in (it feeds bounces and complaints to suppression).
    email_configuration_set: str = ""
    # Where the web client lives: the links in sign-in and confirmation mails open it there (empty: the
    # mails carry the code alone).
    web_base_url: str = setting("", pattern=r"^(https?://[^\s#?]+)?$")
    # A request for a sign-in code is answered no sooner than this after it arrived, whether a mail was
    # sent or not (app.players.email), so its timing does not tell which addresses belong to players.
    sign_in_floor_seconds: float = setting(0.5, ge=0, le=5)
    image_url_ttl_seconds: int = setting(3_600, ge=60, le=302_400)
    # Links are signed once per window, so they stay the same (and cacheable) for its whole length.
    image_url_window_seconds: int = setting(3_600, ge=60, le=302_400)
    card_image_base_url: str = setting("", pattern=r"^(https?://\S+)?$")
    idempotency_ttl_seconds: int = setting(86_400, ge=60)
    max_body_bytes: int = setting(16_384, ge=1_024)
    # A cap on top of the time budget (Services.deadline), which is what usually ends the retries.
    move_attempts: int = setting(24, ge=1, le=100)
    # Unset: tokens live until rotated or revoked; set: a token older than this is refused (token_expired).
    token_max_age_seconds: int | None = setting(None, ge=60)
    # How often a client should poll a game or the inbox (Cache-Control max-age, Retry-After). A by-mail
    # game moves in hours, and nudges tell a player when it is their turn; docs/performance.md has the cost.
    poll_seconds: int = setting(10_800, ge=1, le=86_400)
    # Webhooks (docs/architecture.md). Loopback http is for the local stack alone, never set on AWS.
    webhook_queue_url: str = ""
    webhook_dlq_url: str = ""
    webhook_timeout_seconds: float = setting(5.0, gt=0, le=30)
    webhook_allow_loopback_http: bool = False
    webhook_disable_after_failures: int = setting(20, ge=1)
    webhook_retry_for_seconds: int = setting(86_400, ge=60)
    webhook_retry_base_seconds: int = setting(30, ge=1)
    webhook_attempt_ttl_seconds: int = setting(7 * 86_400, ge=3_600)
    # The notification outbox (docs/notifications.md): a queue and a dead-letter queue per channel. A
    # channel without a queue refuses its messages: the change's record is retried, a held one stays.
    email_queue_url: str = ""
    email_dlq_url: str = ""
    web_push_queue_url: str = ""
    web_push_dlq_url: str = ""
    device_push_queue_url: str = ""
    device_push_dlq_url: str = ""
    # The live channel (docs/live.md): where clients connect (the ticket's `url`), its queue, and the
    # management endpoint the sender posts to (https://<api>.execute-api.<region>.amazonaws.com/<stage>).
    live_url: str = ""
    live_queue_url: str = ""
    live_endpoint_url: str = ""
    # One send's whole deadline (connect and answer): a slow push service or mail server costs its own
    # message this long at most, never another player's.
    notify_send_timeout_seconds: float = setting(2.5, gt=0, le=10)
    notify_retry_base_seconds: int = setting(20, ge=1)
    # How long a send is retried before its message is dead-lettered.
    notify_retry_for_seconds: int = setting(86_400, ge=60)
    # A claim whose send's outcome is unknown (a lost answer) blocks a repeat this long, then is retried.
    notify_claim_seconds: int = setting(120, ge=10)
    # A browser's push service that failed (timed out, 5xx) this many times in a row is disabled.
    web_push_disable_after_failures: int = setting(5, ge=1)
    feed_ttl_after_end_seconds: int = setting(90 * 86_400, ge=3_600)
    # Signs the one-click unsubscribe links of notification mails (app.notify.email.unsubscribe); empty: no
    # notification mail is sent, since none could carry a working unsubscribe link.
    unsubscribe_secret: str = setting("", secret=True)
    # Where the API is reached from outside (the unsubscribe links point there); empty: WEB_BASE_URL,
    # for a deployment serving the web client and the API from one origin (the local stack does).
    public_api_url: str = setting("", pattern=r"^(https?://[^\s#?]+)?$")
    # Web Push (app.notify.web_push.browsers): the SSM SecureString parameter holding the VAPID private key
    # (empty: Web Push is off, 501 web_push_not_configured), and who push services may contact (RFC 8292
    # `sub`, mailto: or https:; empty: mailto:EMAIL_FROM, else WEB_BASE_URL).
    web_push_vapid_parameter: str = ""
    web_push_subject: str = setting("", pattern=r"^((mailto:|https://)\S+)?$")
    # The local stack's own loopback ports (the twin's, the gateway's), comma-separated: a local webhook
    # may call a receiver on this machine, never the services holding the game's data.
    webhook_refused_loopback_ports: str = setting("", pattern=r"^[0-9, ]*$")
    # A player who never sits at a table is removed (DynamoDB TTL) this many days after registering.
    idle_player_days: int = setting(30, ge=1)

    @property
    def refused_loopback_ports(self) -> frozenset[int]:
        return frozenset(int(p) for p in self.webhook_refused_loopback_ports.replace(" ", "").split(",") if p)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> AppSettings:
        """The settings named in ``environ`` (default ``os.environ``); names match case-insensitively.

        Raises SettingsError naming every variable refused (not a number, out of range, not the form asked).
        """
        by_name = {
            name.lower(): value for name, value in (os.environ if environ is None else environ).items()
        }
        values: dict[str, Any] = {}
        refused: list[str] = []
        for f in fields(cls):
            if f.name not in by_name:
                continue
            try:
                values[f.name] = _checked(_PARSERS[str(f.type)](by_name[f.name]), f.metadata)
            except ValueError as wrong:
                refused.append(f"{f.name.upper()}: {wrong}")
        if refused:
            raise SettingsError("; ".join(refused))
        return cls(**values)


def _whole(text: str) -> int:
    return int(text.strip())


def _number(text: str) -> float:
    return float(text.strip())


# As pydantic read them before: the spellings of a flag, case aside.
_FLAGS = {
    **dict.fromkeys(("1", "on", "t", "true", "y", "yes"), True),
    **dict.fromkeys(("0", "off", "f", "false", "n", "no"), False),
}


def _flag(text: str) -> bool:
    try:
        return _FLAGS[text.strip().lower()]
    except KeyError:
        raise ValueError(f"not a flag: {text!r} (true or false)") from None


_PARSERS: dict[str, Callable[[str], Any]] = {
    "str": str,
    "int": _whole,
    "int | None": _whole,
    "float": _number,
    "bool": _flag,
}


def _checked(value: Any, rule: Mapping[str, Any]) -> Any:
    if "ge" in rule and not value >= rule["ge"]:
        raise ValueError(f"{value!r} is below {rule['ge']}")
    if "gt" in rule and not value > rule["gt"]:
        raise ValueError(f"{value!r} is not above {rule['gt']}")
    if "le" in rule and not value <= rule["le"]:
        raise ValueError(f"{value!r} is above {rule['le']}")
    if "min_length" in rule and len(value) < rule["min_length"]:
        raise ValueError(f"shorter than {rule['min_length']} characters")
    if "pattern" in rule and not re.fullmatch(rule["pattern"], value):
        raise ValueError(f"not of the form {rule['pattern']}")
    return value


@cache
def get_settings() -> AppSettings:
    return AppSettings.from_environ()
