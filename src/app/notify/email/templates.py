"""The mails the service sends, each from one template, as plain text and as HTML.

Each names its action, carries the code (the one secret a mail may hold: short-lived, single-use) and
the link that uses it. Everything put into the HTML is escaped, the link included, so no value can add
markup; the text part is the same words without markup. Pure: no clock, no settings.
"""

from __future__ import annotations

from html import escape
from string import Template

from app.notify.email.mail import Mail
from dixit.lean_dataclass import dataclass


@dataclass(frozen=True, slots=True)
class MailTemplate:
    """A subject and a body, with `$code`, `$link` and `$minutes` in them; paragraphs split by blank lines.

    Without a link (no web client configured), the paragraph holding `$link` becomes `without_link`."""

    subject: str
    body: str
    # The paragraph that stands for the one with the link when there is no link to give (no web client).
    without_link: str = "Enter it in the app."

    def render(self, to: str, *, code: str, link: str | None, minutes: int) -> Mail:
        if link is not None and not link.startswith(("https://", "http://")):
            raise ValueError("a mail's link must be an http(s) URL")
        body = self.body
        if link is None:
            body = "\n\n".join(self.without_link if "$link" in part else part for part in body.split("\n\n"))
        values = {"code": code, "link": link or "", "minutes": str(minutes)}
        subject = Template(self.subject).substitute(values)
        text = Template(body).substitute(values) + "\n"
        # The template's own words are escaped too, then each value goes in escaped (quote=True: safe in
        # the href attribute as well), so nothing but the markup below is ever markup.
        link_html = escape(link or "", quote=True)
        fragments = {
            "code": f"<strong>{escape(code, quote=True)}</strong>",
            "link": f'<a href="{link_html}">{link_html}</a>',
            "minutes": escape(str(minutes), quote=True),
        }
        paragraphs = "".join(
            f"<p>{Template(escape(part, quote=True)).substitute(fragments)}</p>"
            for part in body.split("\n\n")
        )
        html = (
            '<!doctype html><html><head><meta charset="utf-8">'
            f"<title>{escape(subject, quote=True)}</title></head><body>{paragraphs}</body></html>"
        )
        return Mail(to=to, subject=subject, text=text, html=html)


SIGN_IN_CODE = MailTemplate(
    subject="Your Dixit by mail sign-in code: $code",
    body=(
        "Someone, hopefully you, asked to sign in to Dixit by mail with this address.\n\n"
        "Your sign-in code is: $code\n\n"
        "Enter it in the app, or open this link to sign in: $link\n\n"
        "The code works once, for $minutes minutes. If you did not ask for it, ignore this mail: "
        "nobody can sign in without the code."
    ),
)

VERIFY_EMAIL = MailTemplate(
    subject="Confirm your email for Dixit by mail: $code",
    body=(
        "Someone, hopefully you, added this address to a Dixit by mail player, so they can sign in "
        "with it if they lose their device.\n\n"
        "Your confirmation code is: $code\n\n"
        "Enter it in the app, or open this link to confirm the address: $link\n\n"
        "The code works once, for $minutes minutes. If this was not you, ignore this mail: the address "
        "stays unconfirmed."
    ),
)


def sign_in_code(to: str, code: str, link: str | None, *, minutes: int = 10) -> Mail:
    """The mail that signs a player in on a new device: the code and a link that uses it."""
    return SIGN_IN_CODE.render(to, code=code, link=link, minutes=minutes)


def verify_email(to: str, code: str, link: str | None, *, minutes: int = 15) -> Mail:
    """The mail that confirms a player's address: the code and a link that uses it."""
    return VERIFY_EMAIL.render(to, code=code, link=link, minutes=minutes)
