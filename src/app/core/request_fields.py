"""What request bodies accept, where more than one resource accepts it: player-typed text, card ids and
JSON integers."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from dixit.limits import MAX_NAME_BYTES, MAX_NAME_LENGTH

# Player-typed text: at least one visible character, and none of the control, bidi-override or isolate
# characters the rules refuse (unassigned code points and the UTF-8 byte limit are the rules' alone).
_HOSTILE = r"\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
TEXT_PATTERN = rf"^[^{_HOSTILE}]*[^\s{_HOSTILE}][^{_HOSTILE}]*$"
CARD_ID_PATTERN = r"^[a-z0-9](?:[a-z0-9_]{0,30}[a-z0-9])?-[0-9]{3}$"
CardId = Annotated[str, Field(pattern=CARD_ID_PATTERN, examples=["base-017"])]


def name_field(meaning: str, example: str, **kwargs: Any) -> Any:
    """A name players give (theirs, a deck's, a device's): the rules check every one against the same
    limits."""
    return Field(
        **kwargs,
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=TEXT_PATTERN,
        examples=[example],
        description=(
            f"{meaning}; at most {MAX_NAME_BYTES} bytes in UTF-8. Refused with 422 although the pattern "
            "allows them: code points Unicode has not assigned (unassigned_character) and names of "
            "invisible characters only (zero-width, fillers, tags: blank_*)"
        ),
    )


def whole_number(value: object) -> object:
    """A BeforeValidator for strict integers that lets 6.0 through as 6 and still refuses "6" and true."""
    # JSON Schema counts 6.0 as an integer, so the server does too.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
