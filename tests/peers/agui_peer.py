"""An AG-UI server on ag-ui-protocol 1.0: `POST /` takes a RunAgentInput and answers with an
SSE event stream (the SDK's EventEncoder). The scripted flow (flow.py) arrives as A2UI
activities the way `@ag-ui/a2ui-middleware` sends them: `activityType: "a2ui-surface"`, one
activity message per surface, a lifecycle snapshot `{status: "building", progressTokens}`
first, then the painted `{a2ui_operations: [...]}` snapshot (replace) on the same message id,
then RFC 6902 `ACTIVITY_DELTA`s appending the later operations. Text goes out as
TEXT_MESSAGE_*; actions come back as `forwardedProps.a2uiAction.userAction`.

    python agui_peer.py         # prints `LISTENING <port>`, serves 127.0.0.1:<port>/
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ag_ui.core import (  # noqa: E402
    ActivityDeltaEvent,
    ActivitySnapshotEvent,
    RunAgentInput,
    RunErrorEvent,
    RunFinishedEvent,
    RunStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
)
from ag_ui.encoder import EventEncoder  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, StreamingResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

import flow  # noqa: E402

THREADS: dict[str, flow.Conversation] = {}
# Surfaces already sent in a thread: later messages for them go out as deltas.
SENT: dict[str, set[str]] = {}


def surface_of(m: dict[str, Any]) -> str:
    for body in m.values():
        if isinstance(body, dict) and "surfaceId" in body:
            return str(body["surfaceId"])
    return "unknown"


def last_user_text(inp: RunAgentInput) -> str | None:
    for m in reversed(inp.messages):
        if getattr(m, "role", None) == "user":
            c = getattr(m, "content", None)
            return c if isinstance(c, str) else None
    return None


async def events(inp: RunAgentInput):
    thread, run = inp.thread_id, inp.run_id
    yield RunStartedEvent(thread_id=thread, run_id=run)
    props = inp.forwarded_props if isinstance(inp.forwarded_props, dict) else {}
    action = ((props.get("a2uiAction") or {}).get("userAction")) if props else None
    text = None if action else last_user_text(inp)
    conv = THREADS.setdefault(thread, flow.Conversation())
    sent = SENT.setdefault(thread, set())
    if text == "fault:runerror":
        yield RunErrorEvent(message="the agent failed on purpose", code="PEER_FAULT")
        return
    if text == "fault:kill":
        yield ActivitySnapshotEvent(message_id="a2ui-surface-killed", activity_type="a2ui-surface",
                                    content={"status": "building", "progressTokens": 5},
                                    replace=True)
        await asyncio.sleep(0.2)
        os._exit(3)
    if text == "fault:stall":
        # A run that shows a building activity, then goes quiet (a client cancels it).
        yield ActivitySnapshotEvent(message_id="a2ui-surface-stalled", activity_type="a2ui-surface",
                                    content={"status": "building", "progressTokens": 1},
                                    replace=True)
        await asyncio.sleep(30)
        yield RunFinishedEvent(thread_id=thread, run_id=run)
        return
    if text and text.startswith("soak:"):
        # A long run for the soak (scripts/soak.sh): one surface, then an ACTIVITY_DELTA
        # every 1/PEER_SOAK_HZ s (default 10/s) for the seconds named, each adding an
        # updateDataModel operation, as an agent streaming a live view does.
        seconds = float(text.split(":", 1)[1] or "60")
        hz = float(os.environ.get("PEER_SOAK_HZ", "10"))
        act = "a2ui-surface-soak"
        yield ActivitySnapshotEvent(message_id=act, activity_type="a2ui-surface", replace=True,
                                    content={"a2ui_operations": flow.soak_surface()})
        n = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while loop.time() < end:
            n += 1
            yield ActivityDeltaEvent(message_id=act, activity_type="a2ui-surface",
                                     patch=[{"op": "add", "path": "/a2ui_operations/-",
                                             "value": flow.soak_update(n)}])
            await asyncio.sleep(1.0 / hz)
        yield RunFinishedEvent(thread_id=thread, run_id=run)
        return
    t = flow.turn(conv, text, action)
    if text == "fault:failed":
        mid = "a2ui-surface-broken"
        yield ActivitySnapshotEvent(message_id=mid, activity_type="a2ui-surface",
                                    content={"status": "building", "progressTokens": 3}, replace=True)
        yield ActivitySnapshotEvent(message_id=mid, activity_type="a2ui-surface",
                                    content={"status": "retrying", "attempt": 2,
                                             "errors": ["invalid JSON from the model"]},
                                    replace=True)
        yield ActivitySnapshotEvent(message_id=mid, activity_type="a2ui-surface",
                                    content={"status": "failed", "attempt": 2,
                                             "errors": ["gave up after 2 attempts"]},
                                    replace=True)
        yield RunFinishedEvent(thread_id=thread, run_id=run)
        return
    for step in t.steps:
        if step.text:
            mid = str(uuid.uuid4())
            yield TextMessageStartEvent(message_id=mid, role="assistant")
            yield TextMessageContentEvent(message_id=mid, delta=step.text)
            yield TextMessageEndEvent(message_id=mid)
        for m in step.messages:
            sid = surface_of(m)
            act = f"a2ui-surface-{sid}"
            if sid not in sent:
                sent.add(sid)
                yield ActivitySnapshotEvent(message_id=act, activity_type="a2ui-surface",
                                            content={"status": "building", "progressTokens": 12},
                                            replace=True)
                await flow.pause()
                yield ActivitySnapshotEvent(message_id=act, activity_type="a2ui-surface",
                                            content={"a2ui_operations": [m]}, replace=True)
            else:
                yield ActivityDeltaEvent(message_id=act, activity_type="a2ui-surface",
                                         patch=[{"op": "add", "path": "/a2ui_operations/-",
                                                 "value": m}])
        await flow.pause()
    mid = str(uuid.uuid4())
    yield TextMessageStartEvent(message_id=mid, role="assistant")
    for word in t.text.split(" "):
        yield TextMessageContentEvent(message_id=mid, delta=word + " ")
    yield TextMessageEndEvent(message_id=mid)
    yield RunFinishedEvent(thread_id=thread, run_id=run)


async def run_agent(request: Request):
    try:
        inp = RunAgentInput.model_validate(await request.json())
    except Exception as e:  # noqa: BLE001 - answered as 422
        return JSONResponse({"error": str(e)}, status_code=422)
    enc = EventEncoder(accept=request.headers.get("accept"))

    async def body():
        async for ev in events(inp):
            yield enc.encode(ev)

    return StreamingResponse(body(), media_type=enc.get_content_type())


app = flow.Guard(Starlette(routes=[Route("/", run_agent, methods=["POST"])]), "agui-peer")

if __name__ == "__main__":
    flow.serve(app, "agui peer")
