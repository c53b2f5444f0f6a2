"""The official A2UI agent SDK (a2ui-agent-sdk, pinned in requirements-sdk.txt) as the
Express oracle of tests/model_text/express_sdk.rs: each example's messages decompiled to
Express by the SDK, and that Express compiled back by the SDK.

usage: express_sdk_oracle.py CATALOG.json EXAMPLE.json...

Prints one JSON document: {"cases": [{"file", "express", "messages"} or {"file", "error"}]}.
No network: everything is read from the files named.
"""

import json
import sys

import pydantic
from a2ui.core.catalog.catalog import Catalog
from a2ui.core.schema.v0_9.server_to_client import ServerToClientMessage
from a2ui.inference_formats.express import ExpressCompiler, ExpressDecompiler


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        catalog = Catalog.from_json(json.load(f))
    adapter = pydantic.TypeAdapter(ServerToClientMessage)
    decompiler = ExpressDecompiler([catalog])
    compiler = ExpressCompiler([catalog])
    cases = []
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                example = json.load(f)
            messages = [adapter.validate_python(m) for m in example["messages"]]
            express = decompiler.decompile(messages)
            compiled = compiler.compile(express)
            cases.append(
                {
                    "file": path,
                    "express": express,
                    "messages": [
                        m.model_dump(mode="json", by_alias=True, exclude_none=True)
                        for m in compiled
                    ],
                }
            )
        except Exception as e:  # noqa: BLE001 - every failure is reported per case
            cases.append({"file": path, "error": f"{type(e).__name__}: {e}"})
    json.dump({"cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()
