"""An A2A agent on a2a-sdk 1.x (the A2A 1.0 dialect: parts without `kind`, `mediaType`,
`TASK_STATE_*`, no `final` flag, numbers as doubles, the `A2A-Version: 1.0` header and
`A2A-Extensions`). The same scripted flow as the 0.3 peer (flow.py), streamed as working
status updates; a step's A2UI messages travel as one data part holding an array (the
extension text's form) with `mediaType: application/a2ui+json`.

    python a2a10_peer.py        # prints `LISTENING <port>`, serves 127.0.0.1:<port>
"""

from __future__ import annotations

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from a2a.helpers.proto_helpers import new_data_part, new_text_part  # noqa: E402
from a2a.server.agent_execution import AgentExecutor, RequestContext  # noqa: E402
from a2a.server.events import EventQueue  # noqa: E402
from a2a.server.request_handlers import DefaultRequestHandler  # noqa: E402
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes  # noqa: E402
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater  # noqa: E402
from a2a.types import (  # noqa: E402
    AgentCapabilities,
    AgentCard,
    AgentExtension,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    Part,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    Task,
    TaskState,
    TaskStatus,
)
from google.protobuf.json_format import MessageToDict, ParseDict  # noqa: E402
from google.protobuf import struct_pb2  # noqa: E402
from starlette.applications import Starlette  # noqa: E402

import flow  # noqa: E402

EXT_V09 = "https://a2ui.org/a2a-extension/a2ui/v0.9"
MIME = "application/a2ui+json"
MIMES = (MIME, "application/json+a2ui")


def card(url: str, extended: bool = False) -> AgentCard:
    params = ParseDict({"supportedCatalogIds": [flow.BASIC], "acceptsInlineCatalogs": False},
                       struct_pb2.Struct())
    secured = bool(os.environ.get("PEER_BEARER_TOKEN"))
    c = AgentCard(
        name="Restaurant finder (A2A 1.0 peer)",
        description="Scripted search -> pick -> book flow for egui_a2ui's transport tests.",
        supported_interfaces=[AgentInterface(url=url, protocol_binding="JSONRPC",
                                             protocol_version="1.0")],
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=True, extensions=[
            AgentExtension(uri=EXT_V09, description="A2UI", params=params)]),
        default_input_modes=["text"],
        default_output_modes=["text"],
        skills=[AgentSkill(id="find", name="Find restaurants", description="search",
                           tags=["demo"])],
    )
    if secured:
        # The card says how to get in, and that an extended card waits behind the token.
        c.security_schemes["bearer"].CopyFrom(SecurityScheme(
            http_auth_security_scheme=HTTPAuthSecurityScheme(scheme="Bearer",
                                                             bearer_format="opaque")))
        c.security_requirements.append(SecurityRequirement(schemes={"bearer": StringList()}))
        c.capabilities.extended_agent_card = True
    if extended:
        c.name = c.name + " [extended]"
    return c


CONVERSATIONS: dict[str, flow.Conversation] = {}
STATES = {
    "input-required": TaskState.TASK_STATE_INPUT_REQUIRED,
    "completed": TaskState.TASK_STATE_COMPLETED,
    "failed": TaskState.TASK_STATE_FAILED,
}


def is_a2ui(part: Part) -> bool:
    if part.media_type in MIMES:
        return True
    meta = MessageToDict(part.metadata) if part.HasField("metadata") else {}
    return meta.get("mimeType") in MIMES


class Executor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        task = context.current_task
        if task is None:
            task = Task(id=context.task_id, context_id=context.context_id,
                        status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED),
                        history=[message])
            await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)

        async def finish(state: TaskState, text: str) -> None:
            await up.update_status(state, message=up.new_agent_message([new_text_part(text)]))

        if EXT_V09 not in context.requested_extensions:
            await finish(TaskState.TASK_STATE_FAILED, "the A2UI extension was not activated")
            return
        metadata = MessageToDict(message.metadata) if message.HasField("metadata") else {}
        error = flow.capabilities_error(metadata)
        if error:
            await finish(TaskState.TASK_STATE_FAILED, error)
            return
        text, action = None, None
        for part in message.parts:
            if part.HasField("data") and is_a2ui(part):
                action = action or flow.action_of(MessageToDict(part.data))
            elif part.HasField("text"):
                text = part.text
        conv = CONVERSATIONS.setdefault(task.context_id, flow.Conversation())
        if (text or "").strip() == "fault:kill":
            await self.step(up, flow.search("kill").steps[0])
            await asyncio.sleep(0.2)
            os._exit(3)
        t = flow.turn(conv, text, action, metadata.get("a2uiClientDataModel"))
        for step in t.steps:
            await self.step(up, step)
        await finish(STATES[t.state], t.text)

    async def step(self, up: TaskUpdater, step: flow.Step) -> None:
        parts = []
        if step.text:
            parts.append(new_text_part(step.text))
        if step.messages:
            parts.append(new_data_part(step.messages, media_type=MIME))
        await up.update_status(TaskState.TASK_STATE_WORKING, message=up.new_agent_message(parts))
        await flow.pause()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is not None:
            await TaskUpdater(event_queue, task.id, task.context_id).cancel()


def main() -> None:
    import uvicorn

    flow.die_with_parent()
    sock = flow.listen_socket()
    port = sock.getsockname()[1]
    c = card(f"http://127.0.0.1:{port}/")
    extended = card(f"http://127.0.0.1:{port}/", extended=True) \
        if os.environ.get("PEER_BEARER_TOKEN") else None
    handler = DefaultRequestHandler(agent_executor=Executor(), task_store=InMemoryTaskStore(),
                                    agent_card=c, extended_agent_card=extended)
    app = flow.Guard(Starlette(routes=create_agent_card_routes(c) + create_jsonrpc_routes(handler, "/")), "a2a10-peer")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    print(f"LISTENING {port}", flush=True)
    asyncio.run(server.serve(sockets=[sock]))


if __name__ == "__main__":
    main()
