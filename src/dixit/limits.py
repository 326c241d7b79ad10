"""Every input limit of the game, in one place.

The request schemas, the OpenAPI document and the rule errors all read these numbers, so a limit can
never say one thing in the contract and another in the rules.
"""

from __future__ import annotations

MAX_NAME_LENGTH = 40
MAX_CLUE_LENGTH = 200
# Text is also bounded in UTF-8 bytes, since the game item is billed by bytes: twice the character limit
# lets names and clues in any script through (most CJK text is 3 bytes a character) while a wall of
# 4-byte emoji cannot double the item.
MAX_NAME_BYTES = 2 * MAX_NAME_LENGTH
MAX_CLUE_BYTES = 2 * MAX_CLUE_LENGTH
# A table-talk message. It lives beside the game item, never in it, so its bytes cost no move anything:
# four bytes a character lets any script (and emoji) through up to the character limit.
MAX_MESSAGE_LENGTH = 300
MAX_MESSAGE_BYTES = 4 * MAX_MESSAGE_LENGTH

# The decks of one game: official decks have 84 cards, a custom deck between these bounds.
MAX_DECKS = 11
MIN_CUSTOM_DECK_CARDS = 6
MAX_CUSTOM_DECK_CARDS = 200

# How long a player has for an owed move, and what happens when the time runs out.
DEFAULT_MOVE_TIMEOUT_HOURS = 48
MIN_MOVE_TIMEOUT_HOURS = 1
MAX_MOVE_TIMEOUT_HOURS = 336

# A card's description (its alt text), as a custom deck's owner may give it at upload.
MAX_DESCRIPTION_LENGTH = 200
MAX_DESCRIPTION_BYTES = 800
# Vacation days a player may declare over one game (a game setting): counted and capped, so an absence
# can pause a game but never stall it forever.
DEFAULT_VACATION_DAYS = 7
MAX_VACATION_DAYS = 30
# An extension gives the player everyone waits on this much more time, once per owed move.
EXTENSION_SECONDS = 24 * 3600
