"""An MCP server on the official `mcp` SDK (2.x, `MCPServer`) over Streamable HTTP. The
scripted flow (flow.py) as MCP Apps "Dynamic View Content": each tool result carries a text
block for the model and one `application/a2ui+json` resource block per streamed step, marked
with `_meta.ui.content`. `search_restaurants` is the agent's tool; `pick` and `book` are
app-only tools the surfaces' actions call (tool = action name, arguments = action context).

    python mcp_peer.py          # prints `LISTENING <port>`, serves 127.0.0.1:<port>/mcp
    python mcp_peer.py --stdio  # MCP over its own stdin/stdout (ends when stdin closes)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp_types import CallToolResult, EmbeddedResource, TextContent, TextResourceContents  # noqa: E402

import flow  # noqa: E402

MIME = "application/a2ui+json"
server = MCPServer("restaurant-finder-peer")
CONV = flow.Conversation()
APP_ONLY = {"ui": {"visibility": ["app"]}}


def result(t: flow.Turn) -> CallToolResult:
    blocks: list = [TextContent(type="text", text=t.text)]
    for i, step in enumerate(t.steps):
        if not step.messages:
            continue
        blocks.append(EmbeddedResource(
            type="resource",
            resource=TextResourceContents(uri=f"a2ui://restaurants/{CONV.turns}/{i}",
                                          mime_type=MIME, text=json.dumps(step.messages)),
            _meta={"ui": {"content": {}}},
        ))
    return CallToolResult(content=blocks, is_error=t.state == "failed")


@server.tool(description="Search restaurants; shows the results as an A2UI surface.")
async def search_restaurants(query: str) -> CallToolResult:
    if query == "fault:error":
        return CallToolResult(content=[TextContent(type="text", text="search failed")],
                              is_error=True)
    if query == "fault:kill":
        os._exit(3)
    await flow.pause()
    return result(flow.turn(CONV, query, None))


@server.tool(description="Pick a restaurant (from the results surface).", meta=APP_ONLY)
async def pick(restaurantId: str) -> CallToolResult:  # noqa: N803 - the action context key
    await flow.pause()
    return result(flow.turn(CONV, None, {"name": "pick", "context": {"restaurantId": restaurantId}}))


@server.tool(description="Book the picked restaurant (from the booking form).", meta=APP_ONLY)
async def book(name: str, size: str) -> CallToolResult:
    await flow.pause()
    return result(flow.turn(CONV, None, {"name": "book", "context": {"name": name, "size": size}}))


def main() -> None:
    if "--stdio" in sys.argv[1:]:
        # stdin is the MCP channel here: the server ends when it closes, and the lifetime
        # bound still holds.
        import threading

        t = threading.Timer(flow.LIFETIME_S, lambda: os._exit(0))
        t.daemon = True
        t.start()
        server.run("stdio")
        return

    import uvicorn

    flow.die_with_parent()
    sock = flow.listen_socket()
    port = sock.getsockname()[1]
    app = server.streamable_http_app(host="127.0.0.1")
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    print(f"LISTENING {port}", flush=True)
    asyncio.run(uv.serve(sockets=[sock]))


if __name__ == "__main__":
    main()
