from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import card_art
from card_art import cache


def test_a_miss_draws_the_card_and_stores_it_under_the_generator_version(art_cache: Path) -> None:
    data = card_art.cached("base-003")
    stored = art_cache / card_art.CACHE_VERSION / "base-003.webp"
    assert stored.read_bytes() == data == card_art.render("base-003")
    assert card_art.GENERATOR_VERSION in card_art.CACHE_VERSION
    assert [p.name for p in stored.parent.iterdir()] == ["base-003.webp"]  # no temporary file left


def test_a_hit_reads_the_stored_bytes_without_drawing(
    stub_cache: Callable[[str, tuple[int, int, int]], bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = stub_cache("base-004", (10, 20, 30))

    def no_drawing(card_id: str) -> bytes:
        raise AssertionError("a cached card was drawn again")

    monkeypatch.setattr(cache, "render", no_drawing)
    assert card_art.cached("base-004") == stored


def test_without_an_override_the_cache_lives_under_xdg_cache_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DIXIT_CARD_ART_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert card_art.cache_dir() == tmp_path / "dixit-card-art" / card_art.CACHE_VERSION


def test_a_malformed_id_is_refused_before_it_reaches_the_file_system(art_cache: Path) -> None:
    with pytest.raises(ValueError, match="not a card id"):
        card_art.cached("../../escape-001")
    assert not art_cache.exists()


@pytest.mark.parametrize("workers", [1, 2])
def test_warming_draws_only_the_missing_cards_into_the_cache(
    workers: int, stub_cache: Callable[[str, tuple[int, int, int]], bytes]
) -> None:
    stored = stub_cache("base-007", (1, 2, 3))
    assert card_art.warm(["base-007", "base-008", "base-009"], workers=workers) == 2
    assert card_art.cached("base-007") == stored  # left as it was
    assert card_art.cached("base-008") == card_art.render("base-008")
    assert cache.missing(["base-007", "base-008", "base-009", "base-010"]) == ["base-010"]
