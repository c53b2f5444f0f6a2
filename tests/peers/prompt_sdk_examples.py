"""The official A2UI agent SDK (a2ui-agent-sdk, pinned in requirements-sdk.txt) as the
example oracle of tests/model_text/prompt_suites.rs: the examples block each prompt
generator writes for example turns.

usage: prompt_sdk_examples.py CATALOG.json EXAMPLE.json...

Prints one JSON document: {"express": ..., "direct_json": ...} (the `### Examples:` body of
each format), or {"error": ...}. No network: everything is read from the files named.
"""

import json
import sys

import pydantic
from a2ui.core.catalog.catalog import Catalog
from a2ui.core.schema import AgentToRendererMessage
from a2ui.inference_formats.direct_json import DirectJsonPromptGenerator
from a2ui.inference_formats.express import ExpressPromptGenerator


def main() -> None:
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            catalog = Catalog.from_json(json.load(f))
        adapter = pydantic.TypeAdapter(AgentToRendererMessage)
        turns = []
        for path in sys.argv[2:]:
            with open(path, encoding="utf-8") as f:
                turns.append([adapter.validate_python(m) for m in json.load(f)])
        out = {
            "express": ExpressPromptGenerator([catalog], examples=turns).generate_examples(),
            "direct_json": DirectJsonPromptGenerator([catalog], examples=turns).generate_examples(),
        }
    except Exception as e:  # noqa: BLE001 - reported to the test
        out = {"error": f"{type(e).__name__}: {e}"}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
