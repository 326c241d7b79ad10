"""What a token may do: the scopes each route declares (handlers.route_table) and a token holds.

A player's own session holds every scope. A personal token (app.players.personal_tokens) holds the
scopes its player gave it, never `account:owner`: signing in, sessions, tokens and erasure stay with
the player's own sessions, so a token handed to a script or a bot can never take the account over.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Literal


class Scope(StrEnum):
    """What a token must allow for a route."""

    GAMES_READ = "games:read"  # see games, their rounds and events, and your inbox
    GAMES_PLAY = "games:play"  # create, join and play games, and act on absences
    NOTIFICATIONS = "notifications:manage"  # preferences, devices, Web Push, mutes, nudges
    WEBHOOKS = "webhooks:manage"
    DECKS = "decks:manage"  # custom decks
    ACCOUNT_READ = "account:read"  # who you are, and your data export
    ACCOUNT_WRITE = "account:write"  # your name
    # Sign-in methods, sessions, tokens, erasure: what only the player's own session may do.
    OWNER = "account:owner"


# The names a personal token may be given, as the request schema takes them (strict bodies take a
# Literal's strings, not an enum's), so the published schema itself says account:owner is never one: a
# test holds this list to GRANTABLE.
GrantableScopeName = Literal[
    "games:read",
    "games:play",
    "notifications:manage",
    "webhooks:manage",
    "decks:manage",
    "account:read",
    "account:write",
]

# What a personal token may be given: everything but the owner's scope.
GRANTABLE: frozenset[Scope] = frozenset(Scope) - {Scope.OWNER}

# In plain words, for the document and the web client's list.
MEANINGS: dict[Scope, str] = {
    Scope.GAMES_READ: "see your games, their rounds and events, and your inbox",
    Scope.GAMES_PLAY: "create, join and play games, and act on absences",
    Scope.NOTIFICATIONS: "manage notification preferences, devices, Web Push, mutes and nudges",
    Scope.WEBHOOKS: "manage your webhooks",
    Scope.DECKS: "manage your custom decks",
    Scope.ACCOUNT_READ: "see who you are, and export your data",
    Scope.ACCOUNT_WRITE: "change your name",
    Scope.OWNER: "sign-in methods, sessions, tokens and deleting the account (your own sessions only)",
}


def allows(granted: frozenset[str] | None, needed: str) -> bool:
    """Whether a token holding `granted` (None: a session, which holds every scope) may use a route
    that needs `needed`."""
    return granted is None or needed in granted


def ordered(scopes: Iterable[str]) -> tuple[str, ...]:
    """Scopes once each, in the order of the list above (how they are stored and shown)."""
    given = set(scopes)
    return tuple(scope.value for scope in Scope if scope.value in given)
