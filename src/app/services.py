"""What a request's use cases work with: the settings, one port per feature's storage and channel, and
the clock, gathered for the handlers.

Only protocols: `app.bootstrap` builds the real adapters, tests hand in their doubles. No use case names
this class: each takes the few ports it reads (the bundles in each feature's ports module), which this
one has, so a handler hands it to any of them. It lives above the features, beside the composition root,
so that app.core names no feature.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import field, replace
from datetime import datetime
from typing import TYPE_CHECKING

from app.core import clock as wall_clock
from app.core.deadline import DEFAULT_SECONDS, Deadline
from dixit.lean_dataclass import dataclass

if TYPE_CHECKING:
    from app.core.settings import AppSettings
    from app.decks.card_images import CardImages
    from app.decks.ports import DeckStore
    from app.feed.ports import FeedStore
    from app.games.ports import GameStore, InboxStore
    from app.live.ports import LiveQueue, LiveSocket, LiveStore
    from app.notify.devices.channels import PushChannel
    from app.notify.email.mail import Mailer
    from app.notify.email.ports import DigestIndex, MailLedger
    from app.notify.outbox_ports import NotificationQueue, SendLedger
    from app.notify.ports import NotificationStore
    from app.notify.web_push.ports import WebPushSender, WebPushStore
    from app.oauth.ports import CodeStore
    from app.players.ports import AppGrantStore, EmailStore, PersonalTokenStore, PlayerStore, SessionStore
    from app.talk.ports import TalkStore
    from app.webhooks.ports import WebhookQueue, WebhookStore


@dataclass(slots=True)
class Services:
    settings: AppSettings
    games: GameStore
    players: PlayerStore
    sessions: SessionStore
    emails: EmailStore
    inbox: InboxStore
    webhooks: WebhookStore
    feed: FeedStore
    decks: DeckStore
    notifications: NotificationStore
    push: PushChannel
    mailer: Mailer
    webhook_queue: WebhookQueue
    images: CardImages
    # The email channel's send claims and suppressed addresses, and the daily digest's index.
    mail_ledger: MailLedger
    digests: DigestIndex
    web_push_subscriptions: WebPushStore
    web_push: WebPushSender
    # The notification outbox: a queue per channel, and the ledger that sends each message once.
    notification_queue: NotificationQueue
    send_ledger: SendLedger
    # Personal tokens (scripts' and bots' scoped tokens), read only when a request brings one.
    personal_tokens: PersonalTokenStore
    # Table talk: each game's messages, beside its item.
    talk: TalkStore
    # The live channel: tickets, connections and watches; its queue; the socket that posts to a connection.
    live: LiveStore
    live_queue: LiveQueue
    live_socket: LiveSocket
    # Apps' grants (OAuth access and refresh tokens) and their authorization codes: app.oauth.
    app_grants: AppGrantStore
    oauth_codes: CodeStore
    # Looked up at each call, so a simulation can swap app.core.clock's `utc_now` for a fake one.
    clock: Callable[[], datetime] = field(default=lambda: wall_clock.utc_now())
    # Until when this request may keep retrying (the handler derives it from the invocation's time left).
    deadline: Deadline = field(default_factory=lambda: Deadline.after(DEFAULT_SECONDS))
    pause: Callable[[float], None] = field(default=time.sleep)

    def until(self, deadline: Deadline) -> Services:
        """The same adapters for a request that may retry until `deadline`."""
        return replace(self, deadline=deadline)

    def at(self, clock: Callable[[], datetime]) -> Services:
        """The same adapters on another clock (the sweep's: the time it was scheduled for)."""
        return replace(self, clock=clock)

    def now_iso(self) -> str:
        # Milliseconds: lobbies are listed newest first by this stamp.
        return self.clock().isoformat(timespec="milliseconds")

    def now_epoch(self) -> int:
        """The "now" the rules core is given (epoch seconds)."""
        return int(self.clock().timestamp())
