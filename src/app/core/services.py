"""The adapters one invocation works with, assembled from settings (tests pass their own)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from app.aws.dynamodb.decks import DeckStore
from app.aws.dynamodb.store import DynamoGameStore
from app.core.deadline import DEFAULT_SECONDS, Deadline
from app.core.settings import AppSettings
from app.decks.card_images import CardImages, shared_card_images
from app.games.ports import Store
from app.notify.channels import Notifier


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class Services:
    settings: AppSettings
    store: Store
    images: CardImages
    notifier: Notifier
    # Looked up at each construction, so a simulation can swap the module's clock for a fake one.
    clock: Callable[[], datetime] = field(default_factory=lambda: utc_now)
    decks: DeckStore | None = None
    # Until when this request may keep retrying (the handler derives it from the invocation's time left).
    deadline: Deadline = field(default_factory=lambda: Deadline.after(DEFAULT_SECONDS))
    pause: Callable[[float], None] = field(default=time.sleep)

    @classmethod
    def from_settings(cls, settings: AppSettings, deadline: Deadline | None = None) -> Services:
        return cls(
            settings=settings,
            store=DynamoGameStore(settings.table_name),
            images=shared_card_images(
                settings.card_bucket,
                settings.image_url_ttl_seconds,
                settings.image_url_window_seconds,
                settings.card_image_base_url,
            ),
            notifier=Notifier(settings.nudge_topic_arn),
            decks=DeckStore(settings.table_name),
            deadline=deadline or Deadline.after(DEFAULT_SECONDS),
        )

    @property
    def deck_store(self) -> DeckStore:
        if self.decks is None:
            self.decks = DeckStore(self.settings.table_name)
        return self.decks

    def now_iso(self) -> str:
        # Milliseconds: lobbies are listed newest first by this stamp.
        return self.clock().isoformat(timespec="milliseconds")

    def now_epoch(self) -> int:
        """The "now" the rules core is given (epoch seconds)."""
        return int(self.clock().timestamp())
