"""OAuth 2.1 for third-party apps: authorization code with PKCE (S256 only), no app registration.

`requests` checks an authorization request (redirect URIs, PKCE, scopes) as pure functions, `consent`
turns the signed-in player's answer into a code, `tokens` exchanges codes and rotates refresh tokens, and
`metadata` is the RFC 8414 document. The tokens an app is given are app.players.app_tokens' grants.
"""
