"""The official A2UI agent SDK (a2ui-agent-sdk, pinned in requirements-sdk.txt) as the
prompt oracle of tests/model_text/prompt_suites.rs: for each catalog document, the
Express prompt generator's catalog instructions (positional signatures, catalog
instructions), the direct-JSON generator's schema section, and the catalog's
self-contained validation schema.

usage: prompt_sdk_oracle.py CATALOG.json...

Prints one JSON document: {"cases": [{"file", "express", "direct_json",
"validation_schema"} or {"file", "error"}]}. No network: everything is read from the files named.
"""

import json
import sys

from a2ui.core.catalog.catalog import Catalog
from a2ui.inference_formats.direct_json import DirectJsonPromptGenerator
from a2ui.inference_formats.express import ExpressPromptGenerator


def main() -> None:
    cases = []
    for path in sys.argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                catalog = Catalog.from_json(json.load(f))
            express = ExpressPromptGenerator([catalog])
            direct = DirectJsonPromptGenerator([catalog])
            cases.append(
                {
                    "file": path,
                    "express": express.generate_catalog_instructions(include_schema=True),
                    "direct_json": direct.generate_catalog_instructions(include_schema=True),
                    "validation_schema": catalog.validation_schema,
                }
            )
        except Exception as e:  # noqa: BLE001 - every failure is reported per case
            cases.append({"file": path, "error": f"{type(e).__name__}: {e}"})
    json.dump({"cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()
