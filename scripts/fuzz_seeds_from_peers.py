"""Record the peers' SSE answers as fuzz seeds (run with the peers' venvs; loopback only).

    tests/peers/.venv/bin/python scripts/fuzz_seeds_from_peers.py main
    tests/peers/.venv-a2a1/bin/python scripts/fuzz_seeds_from_peers.py a2a1

Writes fuzz/seeds/sse_framer/<peer>-<turn> (the raw response bytes), and
fuzz/seeds/a2a_events/ or fuzz/seeds/agui_events/ (one JSON event per line, behind the
target's mode byte).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.join(ROOT, "tests", "peers")
SEEDS = os.path.join(ROOT, "fuzz", "seeds")
A2UI_EXT = "https://a2ui.org/a2a-extension/a2ui/v0.9"
BASIC = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"
META = {"a2uiClientCapabilities": {"v0.9": {"supportedCatalogIds": [BASIC]}},
        "a2uiRendererCapabilities": {"v0.9": {"supportedCatalogIds": [BASIC]}}}


def start(script: str) -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen([sys.executable, os.path.join(PEERS, script)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, env={**os.environ, "PEER_STEP_DELAY_S": "0"})
    line = p.stdout.readline().decode()
    return p, f"http://127.0.0.1:{line.split()[1]}"


def record(url: str, body: dict, headers: dict) -> bytes:
    with httpx.Client(timeout=30) as c:
        with c.stream("POST", url, json=body,
                      headers={"Accept": "text/event-stream", **headers}) as r:
            return b"".join(r.iter_bytes())


def data_lines(raw: bytes) -> list[str]:
    out = []
    for block in raw.replace(b"\r\n", b"\n").split(b"\n\n"):
        data = [ln[5:].lstrip() for ln in block.split(b"\n") if ln.startswith(b"data:")]
        if data:
            out.append(b"\n".join(data).decode())
    return out


def save(target: str, name: str, mode: int, raw: bytes) -> None:
    os.makedirs(os.path.join(SEEDS, target), exist_ok=True)
    with open(os.path.join(SEEDS, target, name), "wb") as f:
        f.write(bytes([mode]) + raw)


def a2a(script: str, dialect: str, turns: list[str]) -> None:
    p, base = start(script)
    try:
        for i, text in enumerate(turns):
            mid = str(uuid.uuid4())
            if dialect == "0.3":
                body = {"jsonrpc": "2.0", "id": i, "method": "message/stream", "params": {
                    "message": {"kind": "message", "role": "user", "messageId": mid,
                                "metadata": META, "parts": [{"kind": "text", "text": text}]}}}
                headers = {"X-A2A-Extensions": A2UI_EXT}
                mode = 0
            else:
                body = {"jsonrpc": "2.0", "id": i, "method": "SendStreamingMessage", "params": {
                    "message": {"role": "ROLE_USER", "messageId": mid, "metadata": META,
                                "parts": [{"text": text}]}}}
                headers = {"A2A-Extensions": A2UI_EXT, "A2A-Version": "1.0"}
                mode = 1
            raw = record(base + "/", body, headers)
            tag = f"a2a{dialect.replace('.', '')}-{text.replace(':', '_')}"
            save("sse_framer", tag, 0x87, raw)
            save("a2a_events", tag, mode, "\n".join(data_lines(raw)).encode())
    finally:
        p.kill()


def agui(turns: list[str]) -> None:
    p, base = start("agui_peer.py")
    try:
        thread = str(uuid.uuid4())
        for text in turns:
            body = {"threadId": thread, "runId": str(uuid.uuid4()), "state": {}, "tools": [],
                    "context": [], "forwardedProps": {},
                    "messages": [{"id": str(uuid.uuid4()), "role": "user", "content": text}]}
            raw = record(base + "/", body, {})
            tag = f"agui-{text.replace(':', '_')}"
            save("sse_framer", tag, 0x83, raw)
            save("agui_events", tag, 0, "\n".join(data_lines(raw)).encode())
    finally:
        p.kill()


if __name__ == "__main__":
    if sys.argv[1:] == ["main"]:
        a2a("a2a03_peer.py", "0.3", ["pasta", "fault:failed", "sushi"])
        agui(["pasta", "fault:runerror", "fault:failed"])
    else:
        a2a("a2a10_peer.py", "1.0", ["pasta", "fault:failed", "sushi"])
