"""An MCP server on the official `mcp` SDK (2.3.0) that speaks only the 2026-07-28 revision
over Streamable HTTP: stateless, `server/discover` instead of `initialize` (which it refuses
with -32022, as a discover-only server does), the MCP Apps extension announced only there.

- `show_status {query}` answers with text, and, when the request's `_meta` says the client
  renders A2UI natively (`io.modelcontextprotocol/ui` with `application/a2ui+json` in
  `mimeTypes` or `contentMimeTypes`), a Dynamic View Content block drawing the `status`
  surface from `a2ui://status/board`. `fault:stall` stalls (at most 30 s); a request holding
  `fault:cut` is answered with an event stream that ends before any event.
- `bump` moves the board's counter on and announces `notifications/resources/updated` for
  it to `subscriptions/listen` streams.
- `a2ui://status/board` (`resources/read`) is the board's data as `updateDataModel`, with
  `ttlMs` 60000 and `cacheScope` private.
- `GET /peer/seen`: the JSON-RPC methods POSTed so far and the reads served (for the tests).

`PEER_BEARER_TOKEN` / `PEER_API_KEY` require credentials (flow.Guard). A call is cancelled
by closing its response stream (this revision has no client notifications over HTTP).

    python mcp26_peer.py          # prints `LISTENING <port>`, serves 127.0.0.1:<port>/mcp
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mcp.server.caching import CacheHint  # noqa: E402
from mcp.server.extension import Extension  # noqa: E402
from mcp.server.mcpserver import Context, MCPServer  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from mcp_types import (  # noqa: E402
    UNSUPPORTED_PROTOCOL_VERSION,
    CallToolResult,
    EmbeddedResource,
    TextContent,
    TextResourceContents,
)

import flow  # noqa: E402

MIME = "application/a2ui+json"
UI = "io.modelcontextprotocol/ui"
BOARD = "a2ui://status/board"
CATALOG = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"
STATE: dict[str, Any] = {"count": 0, "reads": 0, "seen": [], "stall": None}


class UiExtension(Extension):
    """MCP Apps, announced in `server/discover` only (the SDK's handshake-era `initialize`
    result carries no extensions, and this server refuses `initialize` anyway)."""

    identifier = UI


async def discover_only(ctx: Any, call_next: Any) -> Any:
    if ctx.method == "initialize":
        requested = (ctx.params or {}).get("protocolVersion", "")
        raise MCPError(code=UNSUPPORTED_PROTOCOL_VERSION,
                       message="this server speaks 2026-07-28 only: use server/discover",
                       data={"supported": ["2026-07-28"], "requested": requested})
    return await call_next(ctx)


server = MCPServer(
    "status-board-2026",
    extensions=[UiExtension()],
    middleware=[discover_only],
    cache_hints={"resources/read": CacheHint(ttl_ms=60_000, scope="private")},
)


def renders_a2ui(ctx: Context) -> bool:
    caps = ctx.client_capabilities
    settings = (caps.extensions or {}).get(UI) if caps else None
    if not isinstance(settings, dict):
        return False
    listed = list(settings.get("mimeTypes") or []) + list(settings.get("contentMimeTypes") or [])
    return MIME in listed


def board_messages(first: bool) -> list[dict[str, Any]]:
    data = {"version": "v0.9", "updateDataModel": {
        "surfaceId": "status", "path": "/", "value": {"count": STATE["count"]}}}
    if not first:
        return [data]
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": "status", "catalogId": CATALOG}},
        data,
        {"version": "v0.9", "updateComponents": {"surfaceId": "status", "components": [
            {"id": "root", "component": "Column", "children": ["title", "count"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": "Status board"},
            {"id": "count", "component": "Text", "text": {"path": "/count"}},
        ]}},
    ]


@server.tool(description="Show the status board.")
async def show_status(query: str, ctx: Context) -> CallToolResult:
    if query == "fault:stall":
        STATE["stall"] = "started"
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            STATE["stall"] = "cancelled"
            raise
        return CallToolResult(content=[TextContent(type="text", text="stalled")])
    text = TextContent(type="text", text=f"Status for {query}: {STATE['count']} updates.")
    if not renders_a2ui(ctx):
        return CallToolResult(content=[text])
    block = EmbeddedResource(
        type="resource",
        resource=TextResourceContents(uri=BOARD, mime_type=MIME,
                                      text=json.dumps(board_messages(True))),
        _meta={"ui": {"content": {}}},
    )
    return CallToolResult(content=[text, block])


@server.tool(description="Move the board on and announce it.")
async def bump(ctx: Context) -> str:
    STATE["count"] += 1
    await ctx.notify_resource_updated(BOARD)
    return f"count {STATE['count']}"


@server.resource(BOARD, name="status board", mime_type=MIME)
def board() -> str:
    STATE["reads"] += 1
    return json.dumps(board_messages(False))


class Recorder:
    """Records the method of every JSON-RPC message POSTed; serves `GET /peer/seen`; answers
    a request holding `fault:cut` with an event stream that ends at once."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "GET" and scope["path"] == "/peer/seen":
            body = json.dumps({"seen": STATE["seen"], "reads": STATE["reads"],
                               "stall": STATE["stall"]}).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return
        body = await flow.read_body(receive)
        if body is None:
            return
        try:
            decoded = json.loads(body) if body else None
        except ValueError:
            decoded = None
        for m in decoded if isinstance(decoded, list) else [decoded]:
            if isinstance(m, dict) and isinstance(m.get("method"), str):
                STATE["seen"].append(m["method"])
        if b"fault:cut" in body:
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/event-stream")]})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        await self.app(scope, flow.replaying(body, receive), send)


def main() -> None:
    app: Any = Recorder(server.streamable_http_app(host="127.0.0.1"))
    if os.environ.get("PEER_BEARER_TOKEN") or os.environ.get("PEER_API_KEY"):
        # (flow.Guard hides the client's disconnect: a cancelled call then runs on.)
        app = flow.Guard(app, "mcp26-peer")
    flow.serve(app, "mcp26-peer")


if __name__ == "__main__":
    main()
