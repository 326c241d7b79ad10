"""Player-typed text (names, clues, titles, card descriptions, table-talk messages): one rule for everything
other players read. Trimmed of plain spaces, NFC-normalised, then bounded in characters and in UTF-8 bytes,
and free of characters that can hide or rearrange what other players read (see `refused_class`).

The request schemas state the same rule as a pattern (dixit.text_pattern), so a request the schema
accepts is never refused for its characters."""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from dixit.errors import InvalidMoveError
from dixit.limits import (
    MAX_CLUE_BYTES,
    MAX_CLUE_LENGTH,
    MAX_DESCRIPTION_BYTES,
    MAX_DESCRIPTION_LENGTH,
    MAX_MESSAGE_BYTES,
    MAX_MESSAGE_LENGTH,
    MAX_NAME_BYTES,
    MAX_NAME_LENGTH,
)

# Unicode's Bidi_Control characters: embeddings, overrides and isolates reorder the text around them (a
# name could make a clue read backwards), and the marks ALM, LRM and RLM are invisible.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# The Tags block: invisible letters that can spell a hidden sentence after any text.
TAGS = range(0xE0000, 0xE0080)
# Every class of character the rule refuses, by the stable code of its problem, and how a detail names
# it. Spaces other than U+0020 are refused with the separators: they look like a space but are not one,
# so they would let two names read the same and pass for padding; a plain space is all text needs.
REFUSED_CLASSES = {
    "control_character": "a control character",
    "bidi_control": "a bidi control",
    "tag_character": "a tag character",
    "format_character": "an invisible format character",
    "separator_character": "a separator other than the plain space",
    "private_use_character": "a private-use character",
    "lone_surrogate": "a lone surrogate",
    "unassigned_character": "a code point Unicode has not assigned",
}
# Characters that show nothing on their own, beyond the format characters (category Cf: ZWSP, ZWJ,
# word joiner, tag characters...) and spaces: the Hangul and braille fillers, the combining grapheme
# joiner, Khmer inherent vowels, and the variation selectors (Default_Ignorable_Code_Point and kin).
INVISIBLE = frozenset(
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


def refused_class(char: str) -> str | None:
    """The code of the class of `char` when the text rule refuses it (a key of REFUSED_CLASSES), else None."""
    category = unicodedata.category(char)
    if category == "Cc":
        return "control_character"
    if char in BIDI_CONTROLS:
        return "bidi_control"
    if ord(char) in TAGS:
        return "tag_character"
    if category == "Cf":
        return "format_character"
    if category in ("Zl", "Zp") or (category == "Zs" and char != " "):
        return "separator_character"
    if category == "Co":
        return "private_use_character"
    if category == "Cs":
        return "lone_surrogate"
    if category == "Cn":
        return "unassigned_character"
    return None


def _refuse_hostile_characters(text: str, what: str) -> None:
    for position, char in enumerate(text):
        if code := refused_class(char):
            where = f"U+{ord(char):04X} at position {position}"
            raise InvalidMoveError(code, f"{what} cannot contain {REFUSED_CLASSES[code]} ({where})")


def _clean(text: object) -> str:
    """`text` trimmed of plain spaces and NFC-normalised, as every check measures and stores it. Other
    white space is not trimmed but refused, as the schema's pattern says."""
    if not isinstance(text, str):
        return ""
    # NFC composes what a keyboard may send decomposed ("e" + U+0301 -> "é"), so one name is stored and
    # counted one way however it was typed.
    return unicodedata.normalize("NFC", text.strip(" "))


def _utf8_size(text: str) -> int:
    # Lone surrogates are refused before this is called, so the text always encodes.
    return len(text.encode())


def is_invisible(char: str) -> bool:
    """Whether `char` shows nothing (the rule lets some through, such as a plain space, but never alone)."""
    return char.isspace() or char in INVISIBLE or unicodedata.category(char) in ("Cf", "Zs", "Zl", "Zp")


def visible(text: str) -> str:
    """What of `text` a reader actually sees: without spaces and characters that show nothing."""
    return "".join(char for char in text if not is_invisible(char))


def name_key(name: str) -> str:
    """What two names are compared by: the visible characters, compatibility-folded, case-folded, and
    with Cyrillic and Greek look-alikes of Latin letters folded onto them."""
    return unicodedata.normalize("NFKC", visible(name)).translate(_LOOK_ALIKES).casefold()


def check_name(name: object) -> str:
    cleaned = _clean(name)
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
    cleaned = _clean(device)
    if problem := _label_problem(cleaned, "a device label"):
        raise InvalidMoveError("blank_device" if problem.blank else "device_too_long", problem.reason)
    return cleaned


def check_token_name(name: object) -> str:
    """A personal token's name (what its player calls the script holding it), held to a name's rules."""
    cleaned = _clean(name)
    if problem := _label_problem(cleaned, "a token name"):
        raise InvalidMoveError("blank_token_name" if problem.blank else "token_name_too_long", problem.reason)
    return cleaned


def check_title(title: object) -> str | None:
    """A game's title, held to a player name's rules; blank or showing nothing means untitled."""
    cleaned = _clean(title)
    if reason := _label_too_long(cleaned, "a game title"):
        raise InvalidMoveError("title_too_long", reason)
    return cleaned if visible(cleaned) else None


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
    cleaned = _clean(clue)
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
    cleaned = _clean(description)
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
    if not visible(cleaned):
        raise InvalidMoveError("blank_description", "a card description needs at least one visible character")
    return cleaned


def check_message(message: object) -> str:
    """A table-talk message: held to a clue's rules, with room for a few sentences."""
    cleaned = _clean(message)
    if not cleaned:
        raise InvalidMoveError("blank_message", "a message cannot be blank")
    if len(cleaned) > MAX_MESSAGE_LENGTH:
        raise InvalidMoveError("message_too_long", f"a message has at most {MAX_MESSAGE_LENGTH} characters")
    _refuse_hostile_characters(cleaned, "a message")
    if _utf8_size(cleaned) > MAX_MESSAGE_BYTES:
        raise InvalidMoveError(
            "message_too_long", f"a message has at most {MAX_MESSAGE_BYTES} bytes in UTF-8"
        )
    if not visible(cleaned):
        raise InvalidMoveError("blank_message", "a message needs at least one visible character")
    return cleaned
