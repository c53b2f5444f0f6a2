"""An A2A agent on a2a-sdk 0.3.x with the official a2ui-a2a 0.1.0 helpers (the A2A 0.3
dialect: `kind: "data"`, `metadata.mimeType`, `X-A2A-Extensions`). Streams every turn of the
scripted flow (flow.py) as working status updates, one step each, with A2UI parts made by
`a2ui.a2a.parts.create_a2ui_part` (the deprecated `application/json+a2ui` MIME for v0.9).

    python a2a03_peer.py        # prints `LISTENING <port>`, serves 127.0.0.1:<port>
"""

from __future__ import annotations

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from a2a.server.agent_execution import AgentExecutor, RequestContext  # noqa: E402
from a2a.server.apps import A2AStarletteApplication  # noqa: E402
from a2a.server.events import EventQueue  # noqa: E402
from a2a.server.request_handlers import DefaultRequestHandler  # noqa: E402
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater  # noqa: E402
from a2a.types import (  # noqa: E402
    AgentCapabilities,
    AgentCard,
    AgentSkill,
    DataPart,
    Part,
    TaskState,
    TextPart,
)
from a2a.utils import new_task  # noqa: E402
from a2ui.a2a.extension import get_a2ui_agent_extension, try_activate_a2ui_extension  # noqa: E402
from a2ui.a2a.parts import create_a2ui_part, get_a2ui_datapart  # noqa: E402

import flow  # noqa: E402

CARD = AgentCard(
    name="Restaurant finder (A2A 0.3 peer)",
    description="Scripted search -> pick -> book flow for egui_a2ui's transport tests.",
    url="http://127.0.0.1/",  # replaced with the real address at start
    version="1.0.0",
    capabilities=AgentCapabilities(
        streaming=True,
        extensions=[
            get_a2ui_agent_extension("0.8", supported_catalog_ids=[]),
            get_a2ui_agent_extension("0.9", supported_catalog_ids=[flow.BASIC]),
        ],
    ),
    default_input_modes=["text"],
    default_output_modes=["text"],
    skills=[AgentSkill(id="find", name="Find restaurants", description="search", tags=["demo"])],
)

CONVERSATIONS: dict[str, flow.Conversation] = {}
STATES = {
    "input-required": TaskState.input_required,
    "completed": TaskState.completed,
    "failed": TaskState.failed,
}


class Executor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        task = context.current_task
        if task is None:
            task = new_task(message)
            await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)

        def agent_msg(parts: list[Part]):
            return up.new_agent_message(parts)

        async def fail(text: str) -> None:
            await up.update_status(TaskState.failed, message=agent_msg([Part(root=TextPart(text=text))]),
                                   final=True)

        if try_activate_a2ui_extension(context, CARD) is None:
            await fail("the A2UI extension was not activated")
            return
        error = flow.capabilities_error(message.metadata)
        if error:
            await fail(error)
            return
        text, action = None, None
        for part in message.parts:
            dp = get_a2ui_datapart(part)
            if dp is not None:
                action = action or flow.action_of(dp.data)
            elif isinstance(part.root, TextPart):
                text = part.root.text
        user_text = (text or "").strip()
        conv = CONVERSATIONS.setdefault(task.context_id, flow.Conversation())
        steps: list[flow.Step]
        if user_text == "fault:kill":
            await self.step(up, flow.search("kill").steps[0])
            await asyncio.sleep(0.2)
            os._exit(3)
        if user_text == "fault:stall":
            await self.step(up, flow.search("stall").steps[0])
            await asyncio.sleep(30)
            await fail("stalled")
            return
        if user_text == "fault:nona2ui":
            await up.update_status(TaskState.working, message=agent_msg([
                Part(root=DataPart(data={"weather": "sunny"}, metadata={"mimeType": "application/json"})),
            ]))
            t = flow.search("after a non-A2UI part")
        elif user_text == "fault:huge":
            t = flow.search("huge")
            t.steps[1].messages[1]["updateDataModel"]["value"] = "x" * (5 * 1024 * 1024)
        else:
            t = flow.turn(conv, text, action, (message.metadata or {}).get("a2uiClientDataModel"))
        for step in t.steps:
            await self.step(up, step)
        await up.update_status(STATES[t.state], message=agent_msg([Part(root=TextPart(text=t.text))]),
                               final=True)

    async def step(self, up: TaskUpdater, step: flow.Step) -> None:
        parts: list[Part] = []
        if step.text:
            parts.append(Part(root=TextPart(text=step.text)))
        # One A2UI message per part, `data` an object (a2a-sdk 0.3 refuses arrays).
        parts += [create_a2ui_part(m, version="0.9") for m in step.messages]
        await up.update_status(TaskState.working, message=up.new_agent_message(parts))
        await flow.pause()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is not None:
            await TaskUpdater(event_queue, task.id, task.context_id).cancel()


def main() -> None:
    handler = DefaultRequestHandler(agent_executor=Executor(), task_store=InMemoryTaskStore())
    app = flow.Guard(A2AStarletteApplication(agent_card=CARD, http_handler=handler).build(), "a2a03-peer")

    import uvicorn

    flow.die_with_parent()
    sock = flow.listen_socket()
    port = sock.getsockname()[1]
    CARD.url = f"http://127.0.0.1:{port}/"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    print(f"LISTENING {port}", flush=True)
    asyncio.run(server.serve(sockets=[sock]))


if __name__ == "__main__":
    main()
