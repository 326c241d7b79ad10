"""The ports each flow works with, bundled: unions of the features' own bundles (app/<feature>/ports.py),
which the composition's Services has, and so fits each.
(Not a `ports.py`: these are no storage ports of their own, only the union of the features' ones.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from app.feed.ports import FeedWriting
from app.games.ports import Games, Inbox, Moving, Playing
from app.live.ports import Connecting, Live
from app.notify.ports import Notifications, Releasing
from app.oauth.ports import IssuingTokens
from app.players.ports import AppGrants, PersonalTokens, Sessions
from app.talk.ports import Talk, TalkExpiring, Talking
from app.webhooks.ports import Enqueueing

if TYPE_CHECKING:
    from app.live.ports import LiveQueue
    from app.notify.devices.channels import PushChannel
    from app.notify.email.ports import DigestIndex
    from app.webhooks.ports import WebhookQueue


class ChangePorts(Games, Inbox, FeedWriting, Enqueueing, TalkExpiring, Protocol):
    """A game change: the round history and a rematch's finished game (games), the inbox, the feed and
    the webhooks, the table talk's expiry at the end, the live channel's queue (the notifications go
    through the `Delivery` the caller hands in)."""

    webhook_queue: WebhookQueue
    live_queue: LiveQueue


class SweepPorts(Moving, FeedWriting, Enqueueing, Releasing, Protocol):
    """The sweep: the due index and its timeouts (games, the move path), what they tell (the feed and
    the webhooks), and the notifications held through quiet hours (app.notify.holding)."""


class ErasePorts(Talk, Playing, Notifications, Live, Protocol):
    """Erasing an account: the games its inbox names (left or renamed through the move path), its
    table-talk messages' text, its live connections, its push endpoints, its digest entry, and its
    partition."""

    # Talk first: its whole `talk` store stands for the blocks-only view a join (Playing) reads.

    push: PushChannel
    digests: DigestIndex


class TalkPorts(Talking, FeedWriting, Enqueueing, Protocol):
    """A message at a table: the talk (the game, the store, the rates), the feed, the webhooks, the live
    channel's queue."""

    webhook_queue: WebhookQueue
    live_queue: LiveQueue


class RevokePorts(Sessions, PersonalTokens, AppGrants, Connecting, Protocol):
    """Revoking a credential (a session, a personal token, an app's grant), then forgetting the live
    connections opened with it (each credential read beside the player's profile)."""


class AppTokenPorts(IssuingTokens, Connecting, Protocol):
    """The token endpoint, and the live connections a grant it revokes (a replayed refresh token) opened."""
