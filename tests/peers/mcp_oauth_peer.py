"""An MCP server on the official `mcp` SDK (2.3.0) that requires OAuth 2.1, with the SDK's own
auth support (`mcp.server.auth`): it is its own authorization server (an in-memory
`OAuthAuthorizationServerProvider`) with dynamic client registration, publishes its
protected-resource metadata (RFC 9728) and authorization-server metadata (RFC 8414), and
answers an unauthenticated request with `401` and `WWW-Authenticate: Bearer ...
resource_metadata=...`. PKCE (S256) is checked by the SDK's token endpoint.

The authorize endpoint approves at once: it redirects the browser to the client's redirect
URI with the code, so a test can follow the redirect without a browser.

- `show_status {query}` answers with text and a Dynamic View Content block drawing the
  `status` surface (as `mcp26_peer.py`).
- Access tokens live `PEER_TOKEN_TTL_S` seconds (default 3600); refresh tokens are rotated.
- `GET /peer/seen`: what happened (registrations, authorizations, token grants by type, the
  secrets issued, so a test can check none of them was printed).
- `GET /peer/preregistered`: a confidential client registered beforehand (its id and
  secret, `client_secret_basic`, redirect URI `http://127.0.0.1:9/callback`). The SDK's
  token endpoint wants `client_id` in the form even with HTTP Basic; `BasicClientId` adds it
  from the header (RFC 6749 §2.3.1), as an RFC-compliant server reads it.
- `book_table {party}` (or the tool `PEER_SCOPED_TOOL` names) needs the scope `book` too: a call whose token lacks it is refused
  with `403` and `WWW-Authenticate: Bearer error="insufficient_scope", scope="mcp book",
  resource_metadata=...` (`ScopeGate`), so the client must sign in again for it (MCP's
  step-up authorization). Registered clients may ask for both scopes; a first sign-in
  grants `mcp` only (what the `401` challenge names). `/peer/seen` counts these refusals
  (`scope_refusals`) and lists the scopes of every authorization (`authorized_scopes`).
- `POST /peer/expire`: every access token issued so far stops working (the next request
  with one is refused with `401`; the client must refresh); `?refresh=1` revokes every
  refresh token too (the client must sign in again).

    python mcp_oauth_peer.py    # prints `LISTENING <port>`, serves 127.0.0.1:<port>/mcp
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import sys
import time
import urllib.parse
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mcp.server.auth.provider import (  # noqa: E402
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken  # noqa: E402
from mcp_types import CallToolResult, EmbeddedResource, TextContent, TextResourceContents  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, Response  # noqa: E402

import flow  # noqa: E402

MIME = "application/a2ui+json"
SCOPE = "mcp"
BOOK = "book"
# The tool behind the `book` scope (`PEER_SCOPED_TOOL`: `show_status` puts a text turn's
# tool behind it).
SCOPED_TOOL = os.environ.get("PEER_SCOPED_TOOL", "book_table")
TTL_S = int(os.environ.get("PEER_TOKEN_TTL_S", "3600"))
SEEN: dict[str, Any] = {"registrations": 0, "authorizations": 0, "grants": [],
                        "refused": 0, "secrets": [], "basic_auth": 0,
                        "scope_refusals": 0, "authorized_scopes": []}


class Provider:
    """An in-memory authorization server that approves every request."""

    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    def preregister(self) -> dict[str, str]:
        """A confidential client registered beforehand (`client_secret_basic`), for the
        host that brings its own client id and secret."""
        client_id = "egui-a2ui-preregistered"
        secret = self.secret("client-secret")
        self.clients[client_id] = OAuthClientInformationFull(
            client_id=client_id, client_secret=secret,
            redirect_uris=["http://127.0.0.1:9/callback"],
            token_endpoint_auth_method="client_secret_basic",
            grant_types=["authorization_code", "refresh_token"], response_types=["code"],
            scope=f"{SCOPE} {BOOK}", client_name="preregistered")
        return {"client_id": client_id, "client_secret": secret}

    def secret(self, prefix: str) -> str:
        s = f"{prefix}-{secrets.token_hex(16)}"
        SEEN["secrets"].append(s)
        return s

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        SEEN["registrations"] += 1
        # A registered client may ask for both scopes (the step-up asks for `book`).
        client_info.scope = f"{SCOPE} {BOOK}"
        if client_info.client_secret:
            SEEN["secrets"].append(client_info.client_secret)
        self.clients[client_info.client_id or ""] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        SEEN["authorizations"] += 1
        SEEN["authorized_scopes"].append(params.scopes or [SCOPE])
        code = self.secret("code")
        self.codes[code] = AuthorizationCode(
            code=code, scopes=params.scopes or [SCOPE], expires_at=time.time() + 300,
            client_id=client.client_id or "", code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource)
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: OAuthClientInformationFull,
                                      authorization_code: str) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    def issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access = self.secret("access")
        refresh = self.secret("refresh")
        self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes,
                                          expires_at=int(time.time()) + TTL_S, resource=resource)
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes,
                                             resource=resource)
        return OAuthToken(access_token=access, expires_in=TTL_S, scope=" ".join(scopes),
                          refresh_token=refresh)

    async def exchange_authorization_code(self, client: OAuthClientInformationFull,
                                          authorization_code: AuthorizationCode) -> OAuthToken:
        if self.codes.pop(authorization_code.code, None) is None:
            raise TokenError(error="invalid_grant", error_description="code already used")
        SEEN["grants"].append("authorization_code")
        return self.issue(client.client_id or "", authorization_code.scopes,
                          authorization_code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull,
                                 refresh_token: str) -> RefreshToken | None:
        t = self.refresh.get(refresh_token)
        return t if t is not None and t.client_id == client.client_id else None

    async def exchange_refresh_token(self, client: OAuthClientInformationFull,
                                     refresh_token: RefreshToken, scopes: list[str]) -> OAuthToken:
        # Rotated: the old refresh token is spent.
        self.refresh.pop(refresh_token.token, None)
        SEEN["grants"].append("refresh_token")
        return self.issue(client.client_id or "", scopes or refresh_token.scopes,
                          refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        t = self.access.get(token)
        if t is None or (t.expires_at is not None and t.expires_at < time.time()):
            SEEN["refused"] += 1
            return None
        return t

    async def revoke_token(self, token: Any) -> None:
        self.access.pop(getattr(token, "token", ""), None)
        self.refresh.pop(getattr(token, "token", ""), None)

    def expire_all(self) -> None:
        for t in self.access.values():
            t.expires_at = 0


class BasicClientId:
    """RFC 6749 §2.3.1 for the SDK's token endpoint: a client authenticating with HTTP Basic
    need not repeat its `client_id` in the form, but the SDK's `ClientAuthenticator` (2.3.0)
    reads it from the form only (and refuses `Missing client_id`). This adds it from the
    Basic header, as an RFC-compliant server would read it, and counts the requests so
    adjusted (`basic_auth` in `/peer/seen`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/token":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        auth = headers.get("authorization", "")
        if not auth.startswith("Basic "):
            await self.app(scope, receive, send)
            return
        body = await flow.read_body(receive)
        if body is None:
            return
        form = urllib.parse.parse_qs(body.decode("latin-1"))
        if "client_id" not in form:
            try:
                decoded = base64.b64decode(auth[6:]).decode("utf-8")
                client_id = urllib.parse.unquote(decoded.split(":", 1)[0])
            except (ValueError, UnicodeDecodeError):
                client_id = ""
            body += b"&client_id=" + urllib.parse.quote(client_id).encode()
            SEEN["basic_auth"] += 1
        scope = dict(scope)
        scope["headers"] = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-length"]
        scope["headers"].append((b"content-length", str(len(body)).encode()))
        await self.app(scope, flow.replaying(body, receive), send)


class ScopeGate:
    """Refuses `tools/call` of `SCOPED_TOOL` with `403 insufficient_scope` unless the bearer
    token carries the scope `book` (the SDK's `RequireAuthMiddleware` checks one set of
    scopes for every request; a per-tool scope needs this)."""

    def __init__(self, app: Any, provider: Provider, metadata_url: str) -> None:
        self.app = app
        self.provider = provider
        self.metadata_url = metadata_url

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/mcp":
            await self.app(scope, receive, send)
            return
        body = await flow.read_body(receive)
        if body is None:
            return
        try:
            rpc = json.loads(body)
        except ValueError:
            rpc = None
        wants_book = (isinstance(rpc, dict) and rpc.get("method") == "tools/call"
                      and (rpc.get("params") or {}).get("name") == SCOPED_TOOL)
        if wants_book:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope["headers"]}
            auth = headers.get("authorization", "")
            token = self.provider.access.get(auth[7:]) if auth.startswith("Bearer ") else None
            if token is not None and BOOK not in token.scopes:
                SEEN["scope_refusals"] += 1
                challenge = (f'Bearer error="insufficient_scope", scope="{SCOPE} {BOOK}", '
                             f'resource_metadata="{self.metadata_url}", '
                             'error_description="booking needs the book scope"')
                await flow.refuse(send, 403, challenge, "insufficient_scope")
                return
        await self.app(scope, flow.replaying(body, receive), send)


def board() -> list[dict[str, Any]]:
    catalog = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": "status", "catalogId": catalog}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "status", "components": [
            {"id": "root", "component": "Column", "children": ["title"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": "Signed in"},
        ]}},
    ]


def main() -> None:
    flow.die_with_parent()
    sock = flow.listen_socket()
    port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    provider = Provider()
    preregistered = provider.preregister()
    server = MCPServer(
        "oauth-status-peer",
        auth_server_provider=provider,
        auth=AuthSettings(
            issuer_url=base,
            resource_server_url=f"{base}/mcp",
            validate_token_resource=False,
            required_scopes=[SCOPE],
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=[SCOPE, BOOK], default_scopes=[SCOPE]),
        ),
    )

    @server.tool(description="Show the status board.")
    async def show_status(query: str) -> CallToolResult:
        text = TextContent(type="text", text=f"Status for {query}: signed in.")
        block = EmbeddedResource(
            type="resource",
            resource=TextResourceContents(uri="a2ui://status/board", mime_type=MIME,
                                          text=json.dumps(board())),
            _meta={"ui": {"content": {}}},
        )
        return CallToolResult(content=[text, block])

    @server.tool(description="Book a table (needs the `book` scope).")
    async def book_table(party: int) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text=f"Booked for {party}.")])

    @server.custom_route("/peer/seen", methods=["GET"])
    async def seen(request: Request) -> Response:
        return JSONResponse(SEEN)

    @server.custom_route("/peer/preregistered", methods=["GET"])
    async def prereg(request: Request) -> Response:
        return JSONResponse(preregistered)

    @server.custom_route("/peer/expire", methods=["POST"])
    async def expire(request: Request) -> Response:
        provider.expire_all()
        if request.query_params.get("refresh") == "1":
            provider.refresh.clear()
        return JSONResponse({"expired": True})

    import asyncio

    import uvicorn

    app = BasicClientId(ScopeGate(server.streamable_http_app(host="127.0.0.1"), provider,
                                  f"{base}/.well-known/oauth-protected-resource/mcp"))
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    print(f"LISTENING {port}", flush=True)
    print(f"mcp-oauth-peer on 127.0.0.1:{port}", file=sys.stderr, flush=True)
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))


if __name__ == "__main__":
    main()
