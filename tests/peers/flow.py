"""The scripted conversation every peer serves (no LLM): search -> pick -> form with
checks -> confirmation. Transport-free: each turn is a list of steps, each step a list of
A2UI v0.9 messages (dicts) plus optional text, streamed by the peer one step at a time.

Fault turns (the user text starts with "fault:") exercise the client's error paths.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

BASIC = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"
V = "v0.9"
# Every peer stops by itself after this many seconds (bounded even if the test hangs).
LIFETIME_S = float(os.environ.get("PEER_LIFETIME_S", "120"))
# Pause between streamed steps, so a client sees the surface grow.
STEP_DELAY_S = float(os.environ.get("PEER_STEP_DELAY_S", "0.05"))

RESTAURANTS = [
    {"id": "r1", "name": "Pasta Place", "cuisine": "Italian"},
    {"id": "r2", "name": "Noodle Bar", "cuisine": "Japanese"},
    {"id": "r3", "name": "Taco Stand", "cuisine": "Mexican"},
]


def msg(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"version": V, kind: body}


@dataclass
class Step:
    messages: list[dict[str, Any]] = field(default_factory=list)
    text: str | None = None


@dataclass
class Turn:
    steps: list[Step]
    # "input-required", "completed" or "failed"
    state: str
    text: str


@dataclass
class Conversation:
    picked: dict[str, Any] | None = None
    turns: int = 0


def capabilities_error(metadata: dict[str, Any] | None) -> str | None:
    """The capability check: a2uiClientCapabilities keyed by version, naming the basic
    catalog (a bare object is refused, like the official resolver does)."""
    caps = (metadata or {}).get("a2uiClientCapabilities")
    if not isinstance(caps, dict):
        return "no a2uiClientCapabilities in the message metadata"
    entry = caps.get(V)
    if not isinstance(entry, dict):
        return "a2uiClientCapabilities has no 'v0.9' entry"
    try:
        from a2ui.core.schema.v0_9 import V09Capabilities  # official model, when installed

        V09Capabilities.model_validate(entry)
    except ImportError:
        pass
    except Exception as e:  # noqa: BLE001 - reported to the client
        return f"invalid v0.9 capabilities: {e}"
    if BASIC not in entry.get("supportedCatalogIds", []):
        return "the client does not support the basic catalog"
    if not isinstance((metadata or {}).get("a2uiRendererCapabilities"), dict):
        return "no a2uiRendererCapabilities in the message metadata"
    return None


def search(query: str) -> Turn:
    rows = []
    comps: list[dict[str, Any]] = []
    for r in RESTAURANTS:
        rid = r["id"]
        rows.append(f"row-{rid}")
        comps += [
            {"id": f"row-{rid}", "component": "Row", "children": [f"name-{rid}", f"pick-{rid}"]},
            {"id": f"name-{rid}", "component": "Text", "text": f"{r['name']} ({r['cuisine']})"},
            {"id": f"pick-{rid}-label", "component": "Text", "text": "Pick"},
            {
                "id": f"pick-{rid}",
                "component": "Button",
                "child": f"pick-{rid}-label",
                "action": {"event": {"name": "pick", "context": {"restaurantId": rid}}},
            },
        ]
    steps = [
        Step([msg("createSurface", {"surfaceId": "results", "catalogId": BASIC})],
             text=f"Searching for {query!r}..."),
        Step([msg("updateComponents", {"surfaceId": "results", "components": [
            {"id": "root", "component": "Column", "children": ["title", "list"]},
            {"id": "title", "component": "Text", "text": {"path": "/title"}, "variant": "h2"},
            {"id": "list", "component": "Column", "children": []},
        ]}), msg("updateDataModel", {"surfaceId": "results", "path": "/title",
                                     "value": "Searching..."})]),
        Step([msg("updateComponents", {"surfaceId": "results", "components": comps})]),
        Step([msg("updateComponents", {"surfaceId": "results", "components": [
            {"id": "list", "component": "Column", "children": rows}]}),
              msg("updateDataModel", {"surfaceId": "results", "path": "/title",
                                      "value": f"{len(RESTAURANTS)} places for {query}"})]),
    ]
    return Turn(steps, "input-required", f"Found {len(RESTAURANTS)} restaurants. Pick one.")


def pick(conv: Conversation, restaurant_id: Any) -> Turn:
    r = next((r for r in RESTAURANTS if r["id"] == restaurant_id), None)
    if r is None:
        return Turn([], "failed", f"unknown restaurant {restaurant_id!r}")
    conv.picked = r
    checks_name = [{"condition": {"call": "required", "args": {"value": {"path": "/form/name"}}},
                    "message": "Name is required"}]
    checks_size = [{"condition": {"call": "regex", "args": {"value": {"path": "/form/size"},
                                                             "pattern": "^[1-9][0-9]?$"}},
                    "message": "Party size is a number from 1 to 99"}]
    steps = [
        Step([msg("createSurface", {"surfaceId": "booking", "catalogId": BASIC,
                                    "sendDataModel": True})],
             text=f"Booking {r['name']}."),
        Step([msg("updateDataModel", {"surfaceId": "booking", "path": "/form",
                                      "value": {"name": "Ada", "size": "2"}})]),
        Step([msg("updateComponents", {"surfaceId": "booking", "components": [
            {"id": "root", "component": "Column",
             "children": ["heading", "name-field", "size-field", "book"]},
            {"id": "heading", "component": "Text", "text": f"Book {r['name']}", "variant": "h2"},
            {"id": "name-field", "component": "TextField", "label": "Name",
             "value": {"path": "/form/name"}, "checks": checks_name},
            {"id": "size-field", "component": "TextField", "label": "Party size",
             "value": {"path": "/form/size"}, "checks": checks_size},
            {"id": "book-label", "component": "Text", "text": "Book"},
            {"id": "book", "component": "Button", "child": "book-label",
             "checks": checks_name + checks_size,
             "action": {"event": {"name": "book", "context": {
                 "name": {"path": "/form/name"}, "size": {"path": "/form/size"}}}}},
        ]})]),
    ]
    return Turn(steps, "input-required", "Fill in the form and press Book.")


def book(conv: Conversation, context: dict[str, Any], data_model: dict[str, Any] | None) -> Turn:
    if conv.picked is None:
        return Turn([], "failed", "nothing picked yet")
    name = str(context.get("name", "")).strip()
    size = str(context.get("size", "")).strip()
    if not name or not size.isdigit() or not 1 <= int(size) <= 99:
        return Turn([Step([msg("updateDataModel", {"surfaceId": "booking", "path": "/error",
                                                   "value": "invalid form"})])],
                    "input-required", "The form is invalid; fix it and press Book again.")
    synced = ""
    surfaces = (data_model or {}).get("surfaces", {})
    if isinstance(surfaces, dict) and isinstance(surfaces.get("booking"), dict):
        form = surfaces["booking"].get("form", {})
        if form.get("name") == name:
            synced = " (data model synced)"
    text = f"Booked a table for {size} at {conv.picked['name']} under {name}{synced}."
    steps = [
        Step([msg("deleteSurface", {"surfaceId": "results"})]),
        Step([msg("createSurface", {"surfaceId": "confirm", "catalogId": BASIC})]),
        Step([msg("updateComponents", {"surfaceId": "confirm", "components": [
            {"id": "root", "component": "Text", "text": text}]})]),
    ]
    return Turn(steps, "completed", text)


def big() -> Turn:
    """10,000 A2UI parts in one response (one component each, under the caps)."""
    steps = [Step([msg("createSurface", {"surfaceId": "big", "catalogId": BASIC})])]
    n = 10_000
    steps.append(Step([msg("updateComponents", {"surfaceId": "big", "components": [
        {"id": "root", "component": "Column", "children": [f"c{i}" for i in range(50)]}]})]
        + [msg("updateComponents", {"surfaceId": "big", "components": [
            {"id": f"c{i}", "component": "Text", "text": f"item {i}"}]}) for i in range(n - 2)]))
    return Turn(steps, "completed", f"{n} parts")


def turn(conv: Conversation, text: str | None, action: dict[str, Any] | None,
         data_model: dict[str, Any] | None = None) -> Turn:
    """The next turn for a user text or an A2UI action ({name, surfaceId, context, ...})."""
    conv.turns += 1
    if action is not None:
        name = action.get("name")
        ctx = action.get("context") or {}
        if name == "pick":
            return pick(conv, ctx.get("restaurantId"))
        if name == "book":
            return book(conv, ctx, data_model)
        return Turn([], "failed", f"unknown action {name!r}")
    text = (text or "").strip()
    if text == "fault:big":
        return big()
    return search(text or "anything")


def soak_surface() -> list[dict[str, Any]]:
    """The soak's live view: a title, a counter and a list bound to the data model."""
    sid = "soak"
    return [
        {"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": BASIC}},
        {"version": "v0.9", "updateComponents": {"surfaceId": sid, "components": [
            {"id": "root", "component": "Column", "children": ["title", "count", "rows"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": "Live"},
            {"id": "count", "component": "Text", "text": {"call": "formatString",
                                                          "args": {"value": "${/n} updates"}}},
            {"id": "rows", "component": "List", "children": {"path": "/rows",
                                                             "componentId": "row"}},
            {"id": "row", "component": "Text", "text": {"path": "label"}},
        ]}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": sid, "path": "/",
                                                "value": {"n": 0, "rows": []}}},
    ]


def soak_update(n: int) -> dict[str, Any]:
    """Update n: the counter and the last 20 rows (the model stays the same size)."""
    rows = [{"label": f"event {i}"} for i in range(max(0, n - 20), n)]
    return {"version": "v0.9", "updateDataModel": {"surfaceId": "soak", "path": "/",
                                                   "value": {"n": n, "rows": rows}}}


def action_of(a2ui_message: Any) -> dict[str, Any] | None:
    """The action of a client -> server A2UI message, or None."""
    if isinstance(a2ui_message, list):
        for m in a2ui_message:
            a = action_of(m)
            if a is not None:
                return a
        return None
    if isinstance(a2ui_message, dict):
        a = a2ui_message.get("action") or a2ui_message.get("userAction")
        if isinstance(a, dict):
            return a
    return None


def listen_socket() -> socket.socket:
    """A socket on 127.0.0.1 and a free port."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    s.set_inheritable(True)
    return s


def die_with_parent() -> None:
    """Exit when standard input closes (the test that started us is gone) or after
    LIFETIME_S, whichever comes first."""

    def watch() -> None:
        try:
            sys.stdin.read()
        finally:
            os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
    t = threading.Timer(LIFETIME_S, lambda: os._exit(0))
    t.daemon = True
    t.start()


def serve(app: Any, name: str) -> None:
    """Run an ASGI app with uvicorn on 127.0.0.1 and a free port; print `LISTENING <port>`."""
    import uvicorn

    die_with_parent()
    sock = listen_socket()
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    print(f"LISTENING {port}", flush=True)
    print(f"{name} on 127.0.0.1:{port}", file=sys.stderr, flush=True)
    asyncio.run(server.serve(sockets=[sock]))


async def pause() -> None:
    await asyncio.sleep(STEP_DELAY_S)


async def read_body(receive: Any) -> bytes | None:
    """The whole body of an ASGI request (bounded by the request's own size); `None` when the
    client went away first."""
    body = b""
    more = True
    while more:
        msg = await receive()
        if msg["type"] != "http.request":
            return None
        body += msg.get("body", b"")
        more = msg.get("more_body", False)
    return body


def replaying(body: bytes, receive: Any) -> Any:
    """An ASGI `receive` that hands the app `body` (already read) once, then defers to
    `receive`."""
    sent = False

    async def replay() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def refuse(send: Any, status: int, challenge: str, error: str) -> None:
    """Answer `status` with `WWW-Authenticate: challenge` and a JSON `{"error": error}`."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"www-authenticate", challenge.encode()),
                            (b"content-type", b"application/json")]})
    await send({"type": "http.response.body",
                "body": json.dumps({"error": error}).encode()})


class Guard:
    """ASGI middleware for the peers' credential and stream-cut faults, off unless the
    environment turns them on:

    - `PEER_BEARER_TOKEN`: requests other than `GET /.well-known/...` need
      `Authorization: Bearer <token>`, else 401 with `WWW-Authenticate: Bearer realm=...`;
    - `PEER_API_KEY` (header `PEER_API_KEY_HEADER`, default `X-Api-Key`): the same for an
      API-key header (`WWW-Authenticate: ApiKey realm=..., header=...`);
    - a request whose body holds `fault:drop` has its response stream ended cleanly (no
      error, as a proxy that cuts it does) after `PEER_DROP_AFTER` events (default 2); the
      agent goes on with the task. With `PEER_DROP_ONCE=1` only the first such request is
      cut (an AG-UI run's body repeats the whole thread, the fault turn included)."""

    def __init__(self, app: Any, realm: str) -> None:
        self.app = app
        self.realm = realm
        self.bearer = os.environ.get("PEER_BEARER_TOKEN")
        self.api_key = os.environ.get("PEER_API_KEY")
        self.api_key_header = os.environ.get("PEER_API_KEY_HEADER", "X-Api-Key").lower()
        self.drop_after = int(os.environ.get("PEER_DROP_AFTER", "2"))
        self.drop_once = os.environ.get("PEER_DROP_ONCE") == "1"
        self.dropped = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        public = scope["method"] == "GET" and scope["path"].startswith("/.well-known/")
        challenge = None
        if not public and self.bearer and headers.get("authorization") != f"Bearer {self.bearer}":
            challenge = f'Bearer realm="{self.realm}", error="invalid_token"'
        if not public and self.api_key and headers.get(self.api_key_header) != self.api_key:
            challenge = f'ApiKey realm="{self.realm}", header="{self.api_key_header}"'
        if challenge:
            await refuse(send, 401, challenge, "unauthorized")
            return
        # Read the body (bounded by the request's own size) to look for the fault.
        body = await read_body(receive)
        if body is None:
            return
        replayed = False
        never = asyncio.Event()

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            await never.wait()  # the client's disconnect is not passed on: the task goes on
            return {"type": "http.disconnect"}

        if b"fault:drop" not in body or (self.drop_once and self.dropped):
            await self.app(scope, replay, send)
            return
        self.dropped = True
        events = 0
        cut = False

        async def cutting_send(msg: Any) -> None:
            nonlocal events, cut
            if cut:
                return
            if msg["type"] == "http.response.body" and msg.get("body"):
                events += msg["body"].count(b"\n\n") or 1
                await send(msg)
                if events >= self.drop_after:
                    cut = True
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(msg)

        await self.app(scope, replay, cutting_send)
