"""How an email address is compared and what it is stored under: shared by signing in (app.signin) and by
whatever must find a player's address items again (the ownership item is `EMAIL#<address_id>` / `OWNER`)."""

from __future__ import annotations

import hashlib


def normalize(email: str) -> str:
    """The address as it is compared and kept: without surrounding space, in lower case."""
    return email.strip().lower()


def address_id(email: str) -> str:
    """What an address is stored under (its ownership, its sign-in code, its limits): a hash of it."""
    return hashlib.sha256(f"email\x00{normalize(email)}".encode()).hexdigest()
