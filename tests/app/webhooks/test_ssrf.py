"""Webhook URLs that could reach inside the network are refused, whatever form the address takes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.webhooks.ssrf import Resolver, UnsafeUrl, system_resolver, vet
from handlers.problems import status_of

PUBLIC = "93.184.215.14"


def resolving(*addresses: str) -> Resolver:
    def resolver(host: str, port: int) -> Sequence[str]:
        return addresses

    return resolver


def refused(url: str, *, allow_loopback_http: bool = False, resolver: Resolver = system_resolver) -> str:
    with pytest.raises(UnsafeUrl) as caught:
        vet(url, allow_loopback_http=allow_loopback_http, resolver=resolver)
    assert status_of(caught.value) == 422
    return caught.value.code


def test_a_public_https_url_is_pinned_to_its_address_and_keeps_its_host_port_and_path() -> None:
    target = vet("https://hooks.example.com:8443/dixit?team=7", resolver=resolving(PUBLIC))
    assert (target.scheme, target.host, target.port, target.path, target.address) == (
        "https", "hooks.example.com", 8443, "/dixit?team=7", PUBLIC
    )  # fmt: skip


def test_localhost_resolves_to_loopback_and_is_refused() -> None:
    assert refused("https://localhost/hook") == "webhook_url_forbidden_address"


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "10.0.0.8", "172.16.4.4", "192.168.1.1", "100.64.0.1", "0.0.0.0", "169.254.169.254",  # noqa: S104
        "169.254.1.1", "224.0.0.1", "240.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1",
        "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe",
        "2002:7f00:1::", "2001:0:4136:e378:8000:63bf:80ff:fffe",
    ],
)  # fmt: skip
def test_a_name_resolving_to_a_non_public_address_is_refused(address: str) -> None:
    assert (
        refused("https://hooks.example.com/", resolver=resolving(address)) == "webhook_url_forbidden_address"
    )


def test_one_private_answer_among_public_ones_is_enough_to_refuse() -> None:
    assert (
        refused("https://x.example/", resolver=resolving(PUBLIC, "10.1.2.3"))
        == "webhook_url_forbidden_address"
    )


@pytest.mark.parametrize(
    "url",
    ["https://169.254.169.254/latest/meta-data/", "https://[fd00:ec2::254]/", "https://[::ffff:a9fe:a9fe]/",
     "https://127.0.0.1/", "https://[::1]:8443/", "https://10.0.0.1/"],
)  # fmt: skip
def test_literal_addresses_inside_the_network_are_refused(url: str) -> None:
    assert refused(url) == "webhook_url_forbidden_address"


@pytest.mark.parametrize(
    "url",
    [
        "https://2130706433/",
        "https://0x7f000001/",
        "https://0177.0.0.1/",
        "https://127.1/",
        "https://0x7f.1/",
    ],
)
def test_decimal_hex_octal_and_short_ipv4_tricks_are_refused_before_any_lookup(url: str) -> None:
    assert refused(url, resolver=resolving(PUBLIC)) == "webhook_url_invalid"


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://hooks.example.com/", "webhook_url_not_https"),
        ("ftp://hooks.example.com/", "webhook_url_not_https"),
        ("https://user:pw@hooks.example.com/", "webhook_url_has_credentials"),
        ("https:///nohost", "webhook_url_invalid"),
        ("https://hooks.example.com:99999/", "webhook_url_invalid"),
        ("https://hooks.example.com/a b", "webhook_url_invalid"),
        ("https://[fe80::1%25eth0]/", "webhook_url_forbidden_address"),
        ("https://hooks.example.com/" + "a" * 2030, "webhook_url_too_long"),
    ],
)
def test_malformed_or_non_https_urls_are_refused_with_their_own_code(url: str, code: str) -> None:
    assert refused(url, resolver=resolving(PUBLIC)) == code


def test_a_name_that_does_not_resolve_is_refused() -> None:
    def failing(host: str, port: int) -> Sequence[str]:
        raise OSError("no such name")

    assert refused("https://nowhere.invalid/", resolver=failing) == "webhook_url_unresolvable"


def test_the_local_stack_setting_allows_loopback_http_but_never_link_local_metadata_or_private() -> None:
    target = vet("http://localhost:8123/hook", allow_loopback_http=True)
    assert (target.scheme, target.address, target.port) == ("http", "127.0.0.1", 8123)
    assert refused("http://169.254.169.254/", allow_loopback_http=True) == "webhook_url_forbidden_address"
    assert refused("http://[fd00:ec2::254]/", allow_loopback_http=True) == "webhook_url_forbidden_address"
    assert refused("http://x.example/", allow_loopback_http=True, resolver=resolving("10.0.0.1")) == (
        "webhook_url_forbidden_address"
    )
    assert refused("http://x.example/", allow_loopback_http=True, resolver=resolving(PUBLIC)) == (
        "webhook_url_not_https"
    )
