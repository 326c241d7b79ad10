"""Preferences as documented (#37): time zones by their tz database Area/Location names (or UTC) only, and
quiet hours as HH:MM in ASCII digits; the schema lists and patterns exactly what is kept."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.core.errors import InvalidInput
from app.notify.preferences import (
    HH_MM_PATTERN,
    NotificationPreferences,
    check_time_zone,
    time_zone_names,
    updated,
)

OPENAPI = Path(__file__).resolve().parents[3] / "openapi.json"


@pytest.mark.parametrize(
    "name",
    [
        "localtime",
        "Factory",
        "posixrules",
        "Etc/GMT+5",
        "Etc/UTC",
        "US/Eastern",
        "GB",
        "EST5EDT",
        "Zulu",
        "UCT",
    ],
)
def test_pseudo_zones_fixed_offsets_and_legacy_names_are_refused(name: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check_time_zone(name)
    assert refused.value.code == "invalid_time_zone"


@pytest.mark.parametrize("name", ["UTC", "Europe/Paris", "America/Argentina/Buenos_Aires", "Asia/Kolkata"])
def test_area_location_names_and_utc_are_kept(name: str) -> None:
    assert check_time_zone(name) == name


def test_every_listed_zone_is_kept_and_the_list_is_areas_and_utc_only() -> None:
    names = time_zone_names()
    assert len(names) > 300
    for name in names:
        assert check_time_zone(name) == name
        assert name == "UTC" or "/" in name
    assert not any(n.startswith(("Etc/", "US/", "Canada/", "Brazil/")) for n in names)


@pytest.mark.parametrize(
    "start",
    [
        "\uff12\uff12:\uff10\uff10",
        "\u0662\u0662:\u0660\u0660",
        "\u0968\u0968:\u0966\u0966",
        "22:00\n",
        " 22:00",
        "2:00",
        "22.00",
        "24:00",
        "22:60",
    ],
    ids=["fullwidth", "arabic-indic", "devanagari", "newline", "space", "one digit", "dot", "24h", "60min"],
)
def test_quiet_hours_take_hh_mm_in_ascii_digits_only(start: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        updated(NotificationPreferences(), {"quiet_hours": {"start": start, "end": "08:00"}})
    assert refused.value.code == "invalid_quiet_hours"
    assert not re.fullmatch(HH_MM_PATTERN, start)


def test_the_schema_lists_the_zones_kept_and_patterns_the_times() -> None:
    schemas = json.loads(OPENAPI.read_text())["components"]["schemas"]
    assert schemas["SetPreferences"]["properties"]["time_zone"]["enum"] == list(time_zone_names())
    for end in ("start", "end"):
        assert schemas["QuietHoursIn"]["properties"][end]["pattern"] == HH_MM_PATTERN
