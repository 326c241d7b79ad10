"""app.core.settings: configuration comes from environment variables, validated, without pydantic."""

from __future__ import annotations

import pytest

from app.core.settings import AppSettings, SettingsError


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
    with pytest.raises(SettingsError, match=next(iter(environ))):
        AppSettings.from_environ(environ)


@pytest.mark.parametrize(
    ("environ", "read"),
    [
        ({"WEBHOOK_ALLOW_LOOPBACK_HTTP": "true"}, True),
        ({"WEBHOOK_ALLOW_LOOPBACK_HTTP": "Yes"}, True),
        ({"WEBHOOK_ALLOW_LOOPBACK_HTTP": "0"}, False),
        ({"WEBHOOK_TIMEOUT_SECONDS": " 2.5 "}, 2.5),
        ({"TOKEN_MAX_AGE_SECONDS": "3600"}, 3_600),
        ({"EMAIL_FROM": "game@dixit.example"}, "game@dixit.example"),
        ({"EMAIL_FROM": ""}, ""),
    ],
)
def test_flags_numbers_and_forms_are_read_as_typed(environ: dict[str, str], read: object) -> None:
    (name,) = environ
    assert getattr(AppSettings.from_environ(environ), name.lower()) == read


@pytest.mark.parametrize(
    "environ",
    [
        {"WEBHOOK_ALLOW_LOOPBACK_HTTP": "maybe"},
        {"WEBHOOK_TIMEOUT_SECONDS": "0"},
        {"WEBHOOK_TIMEOUT_SECONDS": "nan"},
        {"TOKEN_MAX_AGE_SECONDS": "59"},
        {"TOKEN_MAX_AGE_SECONDS": ""},
        {"EMAIL_FROM": "not an address"},
        {"WEB_BASE_URL": "https://dixit.example\n"},
        {"WEBHOOK_REFUSED_LOOPBACK_PORTS": "4566,3000\n"},
    ],
)
def test_a_value_outside_its_form_is_refused_by_name(environ: dict[str, str]) -> None:
    with pytest.raises(SettingsError, match=next(iter(environ))):
        AppSettings.from_environ(environ)


def test_every_refused_variable_is_named_at_once_and_a_secret_never_shows() -> None:
    with pytest.raises(SettingsError) as refused:
        AppSettings.from_environ({"MOVE_ATTEMPTS": "0", "POLL_SECONDS": "x", "UNSUBSCRIBE_SECRET": "s3cret"})
    assert "MOVE_ATTEMPTS" in str(refused.value)
    assert "POLL_SECONDS" in str(refused.value)
    assert "s3cret" not in repr(AppSettings.from_environ({"UNSUBSCRIBE_SECRET": "s3cret"}))


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


def test_every_setting_reads_its_own_default_back_from_its_variable() -> None:
    """Each type has its reader: one the reader did not know would fail with a KeyError, naming nothing."""
    from dataclasses import fields

    for field in fields(AppSettings):
        # An optional number (None by default) is read as one when its variable gives it.
        value = 86_400 if field.default is None else field.default
        text = str(value).lower() if isinstance(value, bool) else str(value)
        read = AppSettings.from_environ({field.name.upper(): text})
        assert getattr(read, field.name) == value, field.name
