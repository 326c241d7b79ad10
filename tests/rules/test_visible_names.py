"""Names a person can see: nothing blank once the invisible is taken away, one reading per table (#25)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dixit.errors import InvalidMoveError
from dixit.limits import MAX_NAME_BYTES, MAX_NAME_LENGTH
from dixit.moves import Join
from dixit.text import check_clue, check_device, check_name, name_at_table, name_key

from .helpers import act, lobby

# Invisible characters the text rule lets through beside visible ones, but never alone.
INVISIBLE_ONLY = {
    "hangul filler": "\u3164",
    "halfwidth hangul filler": "\uffa0",
    "braille blank": "\u2800",
    "variation selectors": "\ufe0f\ufe0e",
    "combining grapheme joiner": "\u034f",
    "fillers around a space": "\u3164 \u3164",
}
# Invisible characters the text rule refuses outright, with the code of their class.
INVISIBLE_REFUSED = {
    "zero-width space": ("\u200b", "format_character"),
    "tag characters": ("\U000e0041\U000e0064\U000e0061", "tag_character"),
    "zero-width joiners around a space": ("\u200d \u200d", "format_character"),
    "word joiner and soft hyphen": ("\u2060\u00ad", "format_character"),
    "ideographic space and no-break space": ("\u3000\u00a0", "separator_character"),
}


@pytest.mark.parametrize("text", INVISIBLE_ONLY.values(), ids=INVISIBLE_ONLY.keys())
def test_a_name_of_invisible_characters_is_blank(text: str) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        check_name(text)
    assert refused.value.code == "blank_name"


@pytest.mark.parametrize(("text", "code"), INVISIBLE_REFUSED.values(), ids=INVISIBLE_REFUSED.keys())
def test_a_name_of_refused_invisible_characters_is_refused_for_them(text: str, code: str) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        check_name(text)
    assert refused.value.code == code


@pytest.mark.parametrize("text", INVISIBLE_ONLY.values(), ids=INVISIBLE_ONLY.keys())
def test_a_clue_or_device_label_of_invisible_characters_is_blank_too(text: str) -> None:
    for check, code in ((check_clue, "blank_clue"), (check_device, "blank_device")):
        with pytest.raises(InvalidMoveError) as refused:
            check(text)
        assert refused.value.code == code


@pytest.mark.parametrize("name", ["Ada", "美咲", "Łukasz", "💻 Ada", "A\u034flice"])
def test_a_name_with_something_to_see_is_kept_as_typed(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "twin",
    ["Alice", "alice", "ALICE", "Al\u200dice", "\u0410lice", "\uff21\uff4c\uff49\uff43\uff45", "Al ice"],
)
def test_names_that_read_the_same_share_a_key(twin: str) -> None:
    assert name_key(twin) == name_key("Alice")


def test_a_second_player_reading_the_same_is_seated_with_a_suffix() -> None:
    state = act(lobby(1), Join("a", "Alice"))
    state = act(state, Join("b", "\u0410lice"))  # a Cyrillic A
    state = act(state, Join("c", "Al ice"))
    assert [p.name for p in state.players][1:] == ["Alice", "\u0410lice (2)", "Al ice (3)"]


def test_a_different_name_is_seated_unchanged() -> None:
    state = act(act(lobby(1), Join("a", "Alice")), Join("b", "Alicia"))
    assert [p.name for p in state.players][1:] == ["Alice", "Alicia"]


@given(
    st.text(min_size=1, max_size=MAX_NAME_LENGTH), st.lists(st.text(max_size=MAX_NAME_LENGTH), max_size=12)
)
def test_a_seated_name_never_reads_like_another_and_stays_within_the_limits(
    name: str, taken: list[str]
) -> None:
    seated = name_at_table(name, taken)
    assert name_key(seated) not in {name_key(other) for other in taken}
    assert len(seated) <= max(len(name), MAX_NAME_LENGTH)
    assert len(seated.encode("utf-8", "surrogatepass")) <= max(
        len(name.encode("utf-8", "surrogatepass")), MAX_NAME_BYTES
    )
