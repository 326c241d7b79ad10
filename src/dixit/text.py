"""Player-typed text (names, clues and card descriptions): trimmed, bounded in characters and in UTF-8
bytes, and free of characters that can hide or rearrange what other players read."""

from __future__ import annotations

import unicodedata

from dixit.errors import InvalidMoveError
from dixit.limits import (
    MAX_CLUE_BYTES,
    MAX_CLUE_LENGTH,
    MAX_DESCRIPTION_BYTES,
    MAX_DESCRIPTION_LENGTH,
    MAX_NAME_BYTES,
    MAX_NAME_LENGTH,
)

# Embeddings, overrides and isolates reorder the text around them (a name could make a clue read
# backwards); the plain marks LRM/RLM/ALM only nudge neighbouring punctuation and stay allowed.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _refuse_hostile_characters(text: str, what: str) -> None:
    for position, char in enumerate(text):
        category = unicodedata.category(char)
        where = f"U+{ord(char):04X} at position {position}"
        if category == "Cc":
            raise InvalidMoveError("control_character", f"{what} cannot contain control characters ({where})")
        if char in BIDI_CONTROLS:
            raise InvalidMoveError(
                "bidi_control", f"{what} cannot contain bidirectional overrides or isolates ({where})"
            )
        if category == "Cs":
            raise InvalidMoveError("lone_surrogate", f"{what} cannot contain a lone surrogate ({where})")
        if category == "Cn":
            raise InvalidMoveError(
                "unassigned_character", f"{what} cannot contain unassigned code points ({where})"
            )


def _utf8_size(text: str) -> int:
    # Lone surrogates are refused before this is called, so the text always encodes.
    return len(text.encode())


def check_name(name: object) -> str:
    cleaned = _label(name)
    if not cleaned:
        raise InvalidMoveError("blank_name", "a player name cannot be blank")
    if reason := _label_too_long(cleaned, "a player name"):
        raise InvalidMoveError("name_too_long", reason)
    return cleaned


def check_device(device: object) -> str:
    """A device label, held to a player name's rules, with codes of its own."""
    cleaned = _label(device)
    if not cleaned:
        raise InvalidMoveError("blank_device", "a device label cannot be blank")
    if reason := _label_too_long(cleaned, "a device label"):
        raise InvalidMoveError("device_too_long", reason)
    return cleaned


def check_title(title: object) -> str | None:
    """A game's title, held to a player name's rules; blank means untitled."""
    cleaned = _label(title)
    if not cleaned:
        return None
    if reason := _label_too_long(cleaned, "a game title"):
        raise InvalidMoveError("title_too_long", reason)
    return cleaned


def _label(text: object) -> str:
    return text.strip() if isinstance(text, str) else ""


def _label_too_long(cleaned: str, what: str) -> str:
    """Why a name-like label is too long ('' when it is not), after refusing hostile characters."""
    if len(cleaned) > MAX_NAME_LENGTH:
        return f"{what} has at most {MAX_NAME_LENGTH} characters"
    _refuse_hostile_characters(cleaned, what)
    if _utf8_size(cleaned) > MAX_NAME_BYTES:
        return f"{what} has at most {MAX_NAME_BYTES} bytes in UTF-8"
    return ""


def check_clue(clue: object) -> str:
    cleaned = clue.strip() if isinstance(clue, str) else ""
    if not cleaned:
        raise InvalidMoveError("blank_clue", "the clue cannot be blank")
    if len(cleaned) > MAX_CLUE_LENGTH:
        raise InvalidMoveError("clue_too_long", f"a clue has at most {MAX_CLUE_LENGTH} characters")
    _refuse_hostile_characters(cleaned, "the clue")
    if _utf8_size(cleaned) > MAX_CLUE_BYTES:
        raise InvalidMoveError("clue_too_long", f"a clue has at most {MAX_CLUE_BYTES} bytes in UTF-8")
    return cleaned


def check_description(description: object) -> str:
    """A card's description (its alt text): held to a clue's rules, with room for a sentence or two."""
    cleaned = description.strip() if isinstance(description, str) else ""
    if not cleaned:
        raise InvalidMoveError("blank_description", "a card description cannot be blank")
    if len(cleaned) > MAX_DESCRIPTION_LENGTH:
        raise InvalidMoveError(
            "description_too_long", f"a card description has at most {MAX_DESCRIPTION_LENGTH} characters"
        )
    _refuse_hostile_characters(cleaned, "a card description")
    if _utf8_size(cleaned) > MAX_DESCRIPTION_BYTES:
        raise InvalidMoveError(
            "description_too_long", f"a card description has at most {MAX_DESCRIPTION_BYTES} bytes in UTF-8"
        )
    return cleaned
