"""The ports the account's export reads: every feature's, one query each (the composition's Services has
them all, and so fits)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from app.core.clock import Clock
from app.games.ports import Described, Games, Inbox
from app.notify.ports import Notifications
from app.players.ports import Sessions
from app.talk.ports import Talk
from app.webhooks.ports import Webhooks

if TYPE_CHECKING:
    from app.notify.web_push.ports import WebPushStore
    from app.players.ports import AppGrantStore, PersonalTokenStore


class Exporting(Games, Inbox, Described, Sessions, Notifications, Webhooks, Talk, Clock, Protocol):
    """Everything stored about a player: games and rounds, sessions, personal tokens and apps, devices,
    webhooks, subscriptions, what they said at the tables."""

    web_push_subscriptions: WebPushStore
    personal_tokens: PersonalTokenStore
    app_grants: AppGrantStore
