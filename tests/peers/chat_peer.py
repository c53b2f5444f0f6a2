"""A model server on the OpenAI-compatible chat API (`POST /v1/chat/completions` with
`stream: true`), answering from recorded answers instead of a model: the wire format
llama.cpp's server, Ollama and vLLM speak (`chat.completion.chunk` SSE events, a few
characters of `delta.content` each, then `data: [DONE]`).

The answer is chosen by the last user message:
- `booking`: prose and a booking form in an `<a2ui-json>` block;
- `express`: the same form as an A2UI Express `<a2ui>` block;
- an A2UI action `book` (the client's action message in the user text): a confirmation;
- `fault:malformed`: a block whose JSON is broken; once the client asks again with the
  errors ("did not work"), the correct form;
- `fault:cut`: the answer's stream ends in the middle of the block (no `[DONE]`, no
  `finish_reason`), as a server that drops the connection does;
- `fault:error`: an `{"error": ...}` chunk, as hosted APIs send.

Every request's `model` must be `test-model` (else 404 with an OpenAI-style error), and
its first message must be the system prompt. `PEER_BEARER_TOKEN` requires a key
(flow.Guard). Chunks are cut at fixed small sizes, as real servers cut tokens.

    python chat_peer.py        # prints `LISTENING <port>`, serves 127.0.0.1:<port>/v1/chat/completions
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, StreamingResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

import flow  # noqa: E402

BASIC = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"


def lines(*messages: dict) -> str:
    """A block's payload: a JSON array of messages, one a line."""
    return "[\n" + ",\n".join(json.dumps(m, separators=(",", ":")) for m in messages) + "\n]"


FORM_MESSAGES = [
    {"version": "v0.9", "createSurface": {"surfaceId": "booking", "catalogId": BASIC}},
    {"version": "v0.9", "updateComponents": {"surfaceId": "booking", "components": [
        {"id": "root", "component": "Column", "children": ["title", "name", "book"]},
        {"id": "title", "component": "Text", "variant": "h2", "text": "Book a table at Luigi's"},
        {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/name"}},
        {"id": "book-label", "component": "Text", "text": "Book"},
        {"id": "book", "component": "Button", "child": "book-label",
         "action": {"event": {"name": "book", "context": {"name": {"path": "/name"}}}}},
    ]}},
    {"version": "v0.9", "updateDataModel": {"surfaceId": "booking", "path": "/name", "value": "Ada"}},
]

BOOKING = ("Here is a booking form for Luigi's.\n<a2ui-json>\n" + lines(*FORM_MESSAGES)
           + "\n</a2ui-json>\nPress Book when the name is right.")

EXPRESS = """Here is a booking form for Luigi's.
<a2ui>
surface("booking")
root = Column([title, name, book])
title = Text("Book a table at Luigi's", "h2")
name = TextField("Name", $/name)
book = Button(Text("Book"), _, Event("book", {name: $/name}))
$/name = "Ada"
</a2ui>
Press Book when the name is right."""

MALFORMED = ("Here is the form.\n<a2ui-json>\n[\n"
             + '{"version":"v0.9","createSurface":{"surfaceId":"booking","catalogId":"' + BASIC + '"}},\n'
             + '{"version":"v0.9","updateComponents":{"surfaceId":"booking","components":[{"id":"root",,}]}}\n'
             + "]\n</a2ui-json>")


def confirmation(name: str) -> str:
    return ("Booked.\n<a2ui-json>\n" + lines(
        {"version": "v0.9", "createSurface": {"surfaceId": "done", "catalogId": BASIC}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "done", "components": [
            {"id": "root", "component": "Text", "text": f"Table booked for {name}"}]}},
    ) + "\n</a2ui-json>")


def answer_for(messages: list) -> tuple[str, str]:
    """(answer, fault) for the conversation so far."""
    last = messages[-1].get("content", "") if messages else ""
    if "did not work" in last:
        return BOOKING, ""
    if '"action"' in last and '"book"' in last:
        try:
            start = last.index("{")
            action = json.loads(last[start:])["action"]
            return confirmation(action.get("context", {}).get("name", "?")), ""
        except (ValueError, KeyError):
            return "I could not read that action.", ""
    text = last.strip()
    if text == "express":
        return EXPRESS, ""
    if text == "fault:malformed":
        return MALFORMED, ""
    if text == "fault:cut":
        return BOOKING, "cut"
    if text == "fault:error":
        return "", "error"
    if text == "booking":
        return BOOKING, ""
    return "I can show a booking form: ask for `booking`.", ""


def chunk(content: str | None, finish: str | None = None) -> str:
    delta = {} if content is None else {"content": content}
    body = {"id": "chatcmpl-peer", "object": "chat.completion.chunk", "created": 0,
            "model": "test-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return "data: " + json.dumps(body) + "\n\n"


async def completions(request: Request):
    body = await request.json()
    if body.get("model") != "test-model":
        return JSONResponse({"error": {"message": f"model {body.get('model')!r} not found",
                                       "type": "invalid_request_error"}}, status_code=404)
    messages = body.get("messages") or []
    if not messages or messages[0].get("role") != "system":
        return JSONResponse({"error": {"message": "no system prompt"}}, status_code=400)
    if body.get("stream") is not True:
        return JSONResponse({"error": {"message": "this peer streams only"}}, status_code=400)
    answer, fault = answer_for(messages)

    async def events():
        yield "data: " + json.dumps({"choices": [{"index": 0, "delta": {"role": "assistant"}}]}) + "\n\n"
        if fault == "error":
            yield "data: " + json.dumps({"error": {"message": "the model is overloaded",
                                                   "type": "server_error"}}) + "\n\n"
            return
        text = answer
        if fault == "cut":
            # Somewhere inside the second component of the block.
            text = answer[: answer.index('"component":"TextField"') + 30]
        size = 7
        for i in range(0, len(text), size):
            yield chunk(text[i:i + size])
            await asyncio.sleep(0)
        if fault == "cut":
            return
        yield chunk(None, "stop")
        yield "data: [DONE]\n\n"

    return StreamingResponse(events(), media_type="text/event-stream")


app = flow.Guard(Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])]),
                 "chat-peer")

if __name__ == "__main__":
    flow.serve(app, "chat peer")
