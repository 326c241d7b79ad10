"""Taking back what signs a player in (a session, a personal token, an app's grant), and the live sockets
opened with it: the revoke (app.players), then each connection whose credential no longer holds forgotten
(app.live.connections.forget_revoked), so a socket hears nothing more of a token its player took back
and its next frame is told `connection_unknown`. The forgetting is best effort: the revoke stands either
way, a ticket of the revoked credential is refused at `$connect`, and a connection left behind expires.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.flows.bundles import AppTokenPorts, RevokePorts
from app.live.connections import forget_revoked
from app.oauth import tokens
from app.oauth.errors import OAuthRefused
from app.players import accounts, app_tokens, personal_tokens
from app.players.accounts import SignedIn


def revoke_token(ports: RevokePorts, signed: SignedIn) -> None:
    """The current session ends (`DELETE /players/me/tokens/current`)."""
    accounts.revoke_token(ports, signed)
    forget_revoked(ports, signed.player.player_id, now=ports.now_epoch())


def end_session(ports: RevokePorts, signed: SignedIn, session_id: str) -> None:
    """One session signed out: another device's, or this one."""
    accounts.end_session(ports, signed, session_id)
    forget_revoked(ports, signed.player.player_id, now=ports.now_epoch())


def end_other_sessions(ports: RevokePorts, signed: SignedIn) -> None:
    """Signed out everywhere but here."""
    accounts.end_other_sessions(ports, signed)
    forget_revoked(ports, signed.player.player_id, now=ports.now_epoch())


def revoke_personal_token(ports: RevokePorts, signed: SignedIn, token_id: str) -> None:
    personal_tokens.revoke(ports, signed, token_id)
    forget_revoked(ports, signed.player.player_id, now=ports.now_epoch())


def revoke_app(ports: RevokePorts, signed: SignedIn, grant_id: str) -> None:
    app_tokens.revoke(ports, signed.player.player_id, signed.scopes, grant_id)
    forget_revoked(ports, signed.player.player_id, now=ports.now_epoch())


def issue_app_token(ports: AppTokenPorts, form: Mapping[str, str]) -> tokens.Issued:
    """The token endpoint's answer (app.oauth.tokens.issue). A refresh token presented again revokes its
    app's grant (two parties hold it): the sockets that grant opened are forgotten too."""
    try:
        return tokens.issue(ports, form)
    except OAuthRefused as refused:
        if refused.revoked_for is not None:
            forget_revoked(ports, refused.revoked_for, now=ports.now_epoch())
        raise
