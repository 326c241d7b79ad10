"""The pixel measures behind the deck bounds: each one fires on the picture it names and not on others."""

from __future__ import annotations

from PIL import Image, ImageDraw

from card_art.measures import bright_upper_disc, dark_bottom_band, layout_hash


def _card(sky: int = 170) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("L", (400, 600), sky)
    return image, ImageDraw.Draw(image)


def test_a_black_strip_across_the_bottom_fifth_under_a_light_sky_is_a_dark_band() -> None:
    image, draw = _card()
    draw.rectangle((0, 470, 400, 600), fill=20)
    assert dark_bottom_band(image)


def test_a_dark_shape_that_leaves_part_of_the_bottom_lit_is_no_band() -> None:
    image, draw = _card()
    draw.rectangle((0, 470, 330, 600), fill=20)  # the right edge stays lit: not right across
    assert not dark_bottom_band(image)


def test_a_lit_floor_is_no_band_and_neither_is_a_dim_card_throughout() -> None:
    lit, _ = _card()
    dim, _ = _card(sky=60)
    assert not dark_bottom_band(lit)
    assert not dark_bottom_band(dim)  # dark, but not darker than its own sky


def test_a_small_bright_round_spot_in_the_upper_half_is_a_disc() -> None:
    image, draw = _card(sky=60)
    draw.ellipse((150, 80, 210, 140), fill=250)
    assert bright_upper_disc(image)


def test_a_bright_bar_or_a_bright_spot_low_on_the_card_is_no_disc() -> None:
    bar, draw = _card(sky=60)
    draw.rectangle((20, 100, 380, 130), fill=250)
    low, draw = _card(sky=60)
    draw.ellipse((150, 420, 210, 480), fill=250)
    dim, draw = _card(sky=60)
    draw.ellipse((150, 80, 210, 140), fill=120)  # round, but not bright
    assert not bright_upper_disc(bar)
    assert not bright_upper_disc(low)
    assert not bright_upper_disc(dim)


def test_the_layout_hash_reads_where_the_masses_are_not_their_shade() -> None:
    a, draw_a = _card(sky=200)
    draw_a.rectangle((0, 300, 400, 600), fill=30)
    b, draw_b = _card(sky=150)
    draw_b.rectangle((0, 300, 400, 600), fill=90)
    c, draw_c = _card(sky=200)
    draw_c.rectangle((0, 0, 200, 600), fill=30)
    assert layout_hash(a) == layout_hash(b)
    assert (layout_hash(a) ^ layout_hash(c)).bit_count() >= 16
