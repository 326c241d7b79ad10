"""Hostile text in names and clues: one row per case, each refused with its own stable code."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dixit.errors import InvalidMoveError
from dixit.limits import MAX_CLUE_BYTES, MAX_CLUE_LENGTH, MAX_NAME_BYTES, MAX_NAME_LENGTH
from dixit.text import check_clue, check_name

REFUSED = [
    ("nul", "a\x00b", "control_character"),
    ("bell", "a\x07b", "control_character"),
    ("newline", "two\nlines", "control_character"),
    ("tab", "a\tb", "control_character"),
    ("escape sequence", "\x1b[31mred", "control_character"),
    ("delete", "a\x7fb", "control_character"),
    ("c1 next line", "a\x85b", "control_character"),
    ("left-to-right embedding", "a\u202ab", "bidi_control"),
    ("right-to-left embedding", "a\u202bb", "bidi_control"),
    ("pop directional formatting", "a\u202cb", "bidi_control"),
    ("left-to-right override", "a\u202db", "bidi_control"),
    ("right-to-left override", "a\u202eb", "bidi_control"),
    ("left-to-right isolate", "a\u2066b", "bidi_control"),
    ("right-to-left isolate", "a\u2067b", "bidi_control"),
    ("first strong isolate", "a\u2068b", "bidi_control"),
    ("pop directional isolate", "a\u2069b", "bidi_control"),
    ("unassigned in the greek block", "a\u0378b", "unassigned_character"),
    ("noncharacter", "a\uffffb", "unassigned_character"),
    ("unassigned astral", "a\U000e0080b", "unassigned_character"),
    ("lone high surrogate", "a\ud83db", "lone_surrogate"),
    ("lone low surrogate", "a\udc00b", "lone_surrogate"),
]

ACCEPTED = [
    ("accents", "Zoë Łukasz"),
    ("cjk", "美咲"),
    ("emoji with a joiner", "👩‍🚀 crew"),
    ("right-to-left script", "שלום"),
    ("right-to-left mark", "a\u200fb"),
    ("private use", "a\ue000b"),
]


@pytest.mark.parametrize(("case", "text", "code"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_name_with_hostile_characters_is_refused_with_its_code(case: str, text: str, code: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        check_name(text)
    assert error.value.code == code
    assert "U+" in error.value.detail


@pytest.mark.parametrize(("case", "text", "code"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_clue_with_hostile_characters_is_refused_with_its_code(case: str, text: str, code: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        check_clue(text)
    assert error.value.code == code


@pytest.mark.parametrize(("case", "text"), ACCEPTED, ids=[row[0] for row in ACCEPTED])
def test_text_in_any_script_is_accepted(case: str, text: str) -> None:
    assert check_name(text) == text
    assert check_clue(text) == text


def test_surrounding_whitespace_is_trimmed_before_any_check() -> None:
    assert check_name("  Ada \u3000") == "Ada"


@pytest.mark.parametrize(
    ("check", "chars", "max_bytes", "code"),
    [
        (check_name, MAX_NAME_LENGTH, MAX_NAME_BYTES, "name_too_long"),
        (check_clue, MAX_CLUE_LENGTH, MAX_CLUE_BYTES, "clue_too_long"),
    ],
)
def test_text_is_bounded_in_utf8_bytes_as_well_as_in_characters(
    check: Callable[[object], str], chars: int, max_bytes: int, code: str
) -> None:
    emoji = "🦊"  # 4 bytes in UTF-8
    fits = emoji * (max_bytes // 4)
    assert len(fits) <= chars
    assert check(fits) == fits
    with pytest.raises(InvalidMoveError) as error:
        check(fits + "é")  # still within the character limit, two bytes over
    assert error.value.code == code
    assert f"{max_bytes} bytes" in error.value.detail
    with pytest.raises(InvalidMoveError) as too_many:
        check("a" * (chars + 1))
    assert too_many.value.code == code
