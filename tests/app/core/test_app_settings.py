"""app.core.settings: configuration comes from environment variables, validated, without pydantic-settings."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.core.settings import AppSettings


def test_unset_variables_take_the_documented_defaults() -> None:
    settings = AppSettings.from_environ({})
    assert settings.table_name == "dixit-games"
    assert settings.card_bucket == ""
    assert settings.idempotency_ttl_seconds == 86_400


def test_each_setting_is_read_from_its_upper_case_variable_and_typed() -> None:
    settings = AppSettings.from_environ(
        {"TABLE_NAME": "games-prod", "IMAGE_URL_TTL_SECONDS": "120", "MOVE_ATTEMPTS": "3", "PATH": "/bin"}
    )
    assert (settings.table_name, settings.image_url_ttl_seconds, settings.move_attempts) == (
        "games-prod",
        120,
        3,
    )


@pytest.mark.parametrize(
    "environ",
    [
        {"TABLE_NAME": "ab"},
        {"IMAGE_URL_TTL_SECONDS": "59"},
        {"MOVE_ATTEMPTS": "101"},
        {"MAX_BODY_BYTES": "x"},
    ],
)
def test_out_of_range_or_malformed_values_are_refused(environ: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        AppSettings.from_environ(environ)


def test_the_environment_is_read_once_per_process_like_a_lambdas(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.core.settings import get_settings

    monkeypatch.setenv("TABLE_NAME", "games-first")
    get_settings.cache_clear()
    try:
        first = get_settings()
        monkeypatch.setenv("TABLE_NAME", "games-second")
        assert get_settings() is first
        assert first.table_name == "games-first"
    finally:
        get_settings.cache_clear()
