"""The one text rule for what other players read (names, clues, titles, descriptions): one row per hostile
case, each refused with the stable code of its class, and properties over any text."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dixit.errors import InvalidMoveError
from dixit.limits import MAX_CLUE_BYTES, MAX_CLUE_LENGTH, MAX_NAME_BYTES, MAX_NAME_LENGTH
from dixit.text import (
    INVISIBLE,
    REFUSED_CLASSES,
    check_clue,
    check_description,
    check_name,
    check_title,
    refused_class,
    visible,
)
from dixit.text_pattern import ANY_TEXT_PATTERN, REFUSED_RANGES, TEXT_PATTERN, scan_refused

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
    ("right-to-left mark", "a\u200fb", "bidi_control"),
    ("left-to-right mark", "a\u200eb", "bidi_control"),
    ("arabic letter mark", "a\u061cb", "bidi_control"),
    ("tag letters spelling a hidden word", "hi\U000e0068\U000e0069", "tag_character"),
    ("cancel tag", "a\U000e007fb", "tag_character"),
    ("zero-width space", "a\u200bb", "format_character"),
    ("zero-width joiner", "👩\u200d🚀", "format_character"),
    ("soft hyphen", "a\u00adb", "format_character"),
    ("byte order mark", "\ufeffa", "format_character"),
    ("line separator", "a\u2028b", "separator_character"),
    ("paragraph separator", "a\u2029b", "separator_character"),
    ("no-break space", "a\u00a0b", "separator_character"),
    ("ideographic space", "a\u3000b", "separator_character"),
    ("em space", "a\u2003b", "separator_character"),
    ("private use", "a\ue000b", "private_use_character"),
    ("supplementary private use", "a\U000f0000b", "private_use_character"),
]

ACCEPTED = [
    ("accents", "Zoë Łukasz"),
    ("cjk", "美咲"),
    ("emoji", "🚀 crew"),
    ("right-to-left script", "שלום"),
    ("a combining accent", "Zoe\u0301"),
    ("a variation selector on an emoji", "\u2764\ufe0f"),
]


@pytest.mark.parametrize(("case", "text", "code"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_name_with_hostile_characters_is_refused_with_its_code(case: str, text: str, code: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        check_name(text)
    assert error.value.code == code
    assert REFUSED_CLASSES[code] in error.value.detail
    assert "U+" in error.value.detail


@pytest.mark.parametrize(("case", "text", "code"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_clue_with_hostile_characters_is_refused_with_its_code(case: str, text: str, code: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        check_clue(text)
    assert error.value.code == code


@pytest.mark.parametrize(("case", "text", "code"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_title_and_a_description_with_hostile_characters_are_refused_alike(
    case: str, text: str, code: str
) -> None:
    for check in (check_title, check_description):
        with pytest.raises(InvalidMoveError) as error:
            check(text)
        assert error.value.code == code


def test_the_detail_names_the_class_and_the_code_point() -> None:
    with pytest.raises(InvalidMoveError) as error:
        check_clue("abc\u202edef")
    assert error.value.detail == "the clue cannot contain a bidi control (U+202E at position 3)"


@pytest.mark.parametrize(("case", "text"), ACCEPTED, ids=[row[0] for row in ACCEPTED])
def test_text_in_any_script_is_accepted(case: str, text: str) -> None:
    normal = unicodedata.normalize("NFC", text)
    assert check_name(text) == normal
    assert check_clue(text) == normal


def test_plain_spaces_around_are_trimmed_and_other_white_space_is_refused() -> None:
    assert check_name("  Ada  ") == "Ada"
    with pytest.raises(InvalidMoveError) as error:
        check_name("Ada\u3000")
    assert error.value.code == "separator_character"
    with pytest.raises(InvalidMoveError) as tab:
        check_name("\tAda")
    assert tab.value.code == "control_character"


def test_text_is_stored_nfc_normalised_and_measured_so() -> None:
    decomposed = "Zoe\u0301"
    assert check_name(decomposed) == "Zoé"
    # 40 characters typed decomposed are 20 once composed: within the limit.
    assert check_name("e\u0301" * 20) == "é" * 20
    # A character NFC expands (U+0958 is KA + NUKTA) is measured expanded.
    with pytest.raises(InvalidMoveError) as error:
        check_name("\u0958" * 21)
    assert error.value.code == "name_too_long"


def test_a_title_that_shows_nothing_is_no_title() -> None:
    assert check_title("  ") is None
    assert check_title("\u3164") is None
    assert check_title(" Friday ") == "Friday"


def test_a_description_that_shows_nothing_is_blank() -> None:
    with pytest.raises(InvalidMoveError) as error:
        check_description("\u3164 \u3164")
    assert error.value.code == "blank_description"


def test_the_written_out_refused_ranges_are_what_the_rule_refuses_in_this_unicode() -> None:
    items = " ".join(REFUSED_RANGES).split()
    written = [
        (int(i.partition("-")[0], 16), int(i.partition("-")[2] or i.partition("-")[0], 16)) for i in items
    ]
    assert written == scan_refused(), "run `python -m dixit.text_pattern` and paste its ranges"


# Characters from every class the rule knows, so that examples hit each often, beside any character.
_NOTABLE = (
    [chr(c) for c in (0x00, 0x1F, 0x7F, 0x85, 0xA0, 0xAD, 0x200B, 0x200D, 0x200F, 0x202E, 0x2028, 0x3000)]
    + [chr(c) for c in (0xE000, 0xF0000, 0xE0041, 0xE0001, 0x0378, 0xFFFF, 0x10FFFF)]
    + sorted(INVISIBLE)[:12]
    + [" ", "e", "\u0301", "\u0958", "Å", "\u212b", "A"]
)
any_text = st.text(
    st.one_of(st.characters(exclude_categories=["Cs"]), st.sampled_from(_NOTABLE)), max_size=24
)


def _refusal(check: Callable[[str], object], text: str) -> str | None:
    """The code `check` refuses `text` with, None when it accepts it."""
    try:
        check(text)
    except InvalidMoveError as error:
        return error.code
    return None


@settings(max_examples=600, deadline=None)
@given(any_text)
@example("\U000e0068\U000e0069")
@example("a\u2029b")
@example(" \u3164 ")
def test_the_schema_pattern_accepts_exactly_what_the_rule_accepts(text: str) -> None:
    """A request the schema accepts is never refused for its characters, and one it refuses always is
    (24 characters stay within every length limit, even NFC-expanded)."""
    refusal = _refusal(check_clue, text)
    assert refusal in (None, "blank_clue", *REFUSED_CLASSES)
    assert bool(re.fullmatch(TEXT_PATTERN, text)) == (refusal is None)
    assert bool(re.fullmatch(ANY_TEXT_PATTERN, text)) == (_refusal(check_title, text) is None)


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_what_the_rule_accepts_is_normalised_and_free_of_every_refused_class(text: str) -> None:
    refusal = _refusal(check_name, text)
    if refusal is not None:
        assert refusal == "blank_name" or refusal in {refused_class(c) for c in text}
        return
    cleaned = check_name(text)
    assert cleaned == unicodedata.normalize("NFC", cleaned) == cleaned.strip(" ")
    assert visible(cleaned)
    assert all(refused_class(c) is None for c in cleaned)
    assert check_name(cleaned) == cleaned


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
