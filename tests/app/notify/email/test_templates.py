"""app.notify.email.templates: each mail names its action, holds its code and link, and escapes them."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest

from app.notify.email.mail import Mail
from app.notify.email.templates import sign_in_code, verify_email

Render = Callable[..., Mail]
TEMPLATES = pytest.mark.parametrize(
    ("render", "action"),
    [(sign_in_code, "sign in"), (verify_email, "confirm")],
    ids=["sign_in_code", "verify_email"],
)
TO = "player@example.com"
LINK = "https://dixit.example/sign-in?email=player%40example.com&code=482913"


class _Parsed(HTMLParser):
    """The tags, attributes and text of an HTML document, as a browser would read them."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.hrefs: list[str] = []
        self.text = ""
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.hrefs += [value or "" for name, value in attrs if name == "href"]

    def handle_data(self, data: str) -> None:
        self.text += data


@TEMPLATES
def test_the_mail_names_its_action_and_holds_the_code_and_the_link(render: Render, action: str) -> None:
    mail = render(TO, "482913", LINK)
    assert mail.to == TO
    assert "482913" in mail.subject
    for body in (mail.text, _Parsed(mail.html).text):
        assert action in body
        assert "Your " in body
        assert "code is: 482913" in body
        assert LINK in body
    assert _Parsed(mail.html).hrefs == [LINK]


@TEMPLATES
def test_html_escapes_the_code_and_the_link(render: Render, action: str) -> None:
    code, link = '<script>alert("x")</script>', 'https://evil.example/"><img src=x onerror=alert(1)>&a=b'
    mail = render(TO, code, link)
    parsed = _Parsed(mail.html)
    # Nothing a value holds became markup: the same tags as an ordinary mail, the values read back as text.
    assert parsed.tags == _Parsed(render(TO, "482913", LINK).html).tags
    assert "script" not in parsed.tags
    assert "img" not in parsed.tags
    assert code in parsed.text
    assert parsed.hrefs == [link]
    assert "<script>" not in mail.html
    assert "<img" not in mail.html
    # The text part is not HTML: the values are as they are.
    assert code in mail.text
    assert link in mail.text


@TEMPLATES
def test_no_secret_but_the_code(render: Render, action: str) -> None:
    mail = render(TO, "482913", LINK)
    # The only long digit or token-like runs are the code's (and the link, which carries the code).
    for body in (mail.subject, mail.text.replace(LINK, ""), _Parsed(mail.html).text.replace(LINK, "")):
        assert re.findall(r"\d{4,}", body) == ["482913"] * body.count("482913")
        assert not re.search(r"[A-Za-z0-9_-]{24,}", body)
        assert "token" not in body.lower()


@TEMPLATES
def test_links_are_web_links_only(render: Render, action: str) -> None:
    with pytest.raises(ValueError, match="http"):
        render(TO, "482913", "javascript:alert(1)")


def test_a_mail_is_one_line_of_headers() -> None:
    with pytest.raises(ValueError, match="one non-empty line"):
        Mail(to="a@example.com\nBcc: b@example.com", subject="s", text="t", html="h")
    with pytest.raises(ValueError, match="one non-empty line"):
        Mail(to="a@example.com", subject="s\r\nX: y", text="t", html="h")
