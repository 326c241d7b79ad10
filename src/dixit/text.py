"""Player-typed text (names, clues and card descriptions): trimmed, bounded in characters and in UTF-8
bytes, and free of characters that can hide or rearrange what other players read."""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

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
# Characters that show nothing on their own, beyond the format characters (category Cf: ZWSP, ZWJ,
# word joiner, tag characters...) and spaces: the Hangul and braille fillers, the combining grapheme
# joiner, Khmer inherent vowels, and the variation selectors (Default_Ignorable_Code_Point and kin).
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)
# Latin look-alikes from Cyrillic and Greek: folded together when names are compared at one table, so
# "Alice" spelt with a Cyrillic A sits beside "Alice" with a suffix, never as a second "Alice".
_LOOK_ALIKES = str.maketrans(
    "аеорсухіјѕԁԛԝѵӏһАВЕЅІЈКМНОРСТХУԚԜҮαορικνυϲϳΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdqwvlhABESIJKMHOPCTXYQWYaopikvucjABEZHIKMNOPTYX",
)


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


def is_invisible(char: str) -> bool:
    return char.isspace() or char in _INVISIBLE or unicodedata.category(char) in ("Cf", "Zs", "Zl", "Zp")


def visible(text: str) -> str:
    """What of `text` a reader actually sees: without spaces and characters that show nothing."""
    return "".join(char for char in text if not is_invisible(char))


def name_key(name: str) -> str:
    """What two names are compared by: the visible characters, compatibility-folded, case-folded, and
    with Cyrillic and Greek look-alikes of Latin letters folded onto them."""
    return unicodedata.normalize("NFKC", visible(name)).translate(_LOOK_ALIKES).casefold()


def check_name(name: object) -> str:
    cleaned = _label(name)
    if problem := _label_problem(cleaned, "a player name"):
        raise InvalidMoveError("blank_name" if problem.blank else "name_too_long", problem.reason)
    return cleaned


def name_at_table(name: str, taken: list[str]) -> str:
    """`name` as it is seated beside `taken`: itself, or with the first free " (n)" suffix when another
    player already bears a name that reads the same (shortened to fit the length limit)."""
    keys = {name_key(other) for other in taken}
    if name_key(name) not in keys:
        return name
    for number in range(2, len(taken) + 3):
        suffix = f" ({number})"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
        while _utf8_size(candidate) > MAX_NAME_BYTES:
            name = name[:-1]
            candidate = name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
    raise AssertionError("one of len(taken) + 1 suffixes is always free")  # pragma: no cover


def check_device(device: object) -> str:
    """A device label, held to a player name's rules, with codes of its own."""
    cleaned = _label(device)
    if problem := _label_problem(cleaned, "a device label"):
        raise InvalidMoveError("blank_device" if problem.blank else "device_too_long", problem.reason)
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


class _LabelProblem(NamedTuple):
    blank: bool  # blank or showing nothing; else too long
    reason: str


def _label_problem(cleaned: str, what: str) -> _LabelProblem | None:
    """What is wrong with a trimmed name-like label, if anything; None when it is fine. The caller raises
    with its own error codes (literal at the raise, so tests/rules/test_errors.py can list every code)."""
    if not cleaned:
        return _LabelProblem(blank=True, reason=f"{what} cannot be blank")
    if reason := _label_too_long(cleaned, what):
        return _LabelProblem(blank=False, reason=reason)
    if not visible(cleaned):
        return _LabelProblem(blank=True, reason=f"{what} needs at least one visible character")
    return None


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
    if not visible(cleaned):
        raise InvalidMoveError("blank_clue", "the clue needs at least one visible character")
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
