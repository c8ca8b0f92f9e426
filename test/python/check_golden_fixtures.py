"""Decodes every golden fixture (topics/schemas/*/fixtures/vN-*.bin) with fastavro and the committed
.avsc files, and compares the value with the fixture's JSON form. Prints one line per fixture and a
summary; exits 1 if any fixture decodes differently, or if none were found.

    python check_golden_fixtures.py SCHEMAS_ROOT
"""
import base64
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python"))
from logbook_contract import Contract, ContractError  # noqa: E402


def fixture_form(value):
    """A decoded value in the fixture JSON's form: bytes as {"$utf8": …} or {"$base64": …}."""
    if isinstance(value, bytes):
        try:
            text = value.decode("utf-8")
            if not any(ch in text for ch in [chr(c) for c in [*range(0, 9), *range(14, 32)]] + ["\ufffd"]):
                return {"$utf8": text}
        except UnicodeDecodeError:
            pass
        return {"$base64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        return {k: fixture_form(v) for k, v in value.items()}
    if isinstance(value, list):
        return [fixture_form(v) for v in value]
    return value


def first_difference(actual, expected, path="$"):
    """The path of the first place two values differ, or None."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        for key in sorted(set(actual) | set(expected)):
            if key not in actual or key not in expected:
                return f"{path}.{key} ({'missing from the decoded value' if key not in actual else 'not in the fixture'})"
            found = first_difference(actual[key], expected[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(actual, list) and isinstance(expected, list) and len(actual) == len(expected):
        for i, (a, e) in enumerate(zip(actual, expected)):
            found = first_difference(a, e, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if actual == expected else f"{path}: decoded {json.dumps(actual)[:200]}, the fixture says {json.dumps(expected)[:200]}"


def typescript_shape(value):
    """The decoded value as the TypeScript codec returns it: a history event's wire field
    `eventType` (there for consumers that do not decode the union) is its attributes' tag, and
    the TypeScript value leaves it out. History events also travel inside workflow tasks."""
    if isinstance(value, list):
        return [typescript_shape(v) for v in value]
    if not isinstance(value, dict):
        return value
    shaped = {k: typescript_shape(v) for k, v in value.items()}
    attributes = shaped.get("attributes")
    if "eventType" in shaped and isinstance(attributes, dict) and "type" in attributes:
        event_type = shaped.pop("eventType")
        if event_type != attributes["type"]:
            raise ContractError(f"eventType {event_type} differs from the attributes' branch {attributes['type']}")
    return shaped


def main() -> int:
    schemas_root = sys.argv[1]
    contract = Contract(os.path.join(schemas_root, "avsc"))
    bins = sorted(glob.glob(os.path.join(schemas_root, "*", "fixtures", "v*-*.bin")))
    failures = 0
    for path in bins:
        name = os.path.relpath(path, schemas_root)
        with open(path, "rb") as f:
            raw = f.read()
        with open(path[: -len(".bin")] + ".json", encoding="utf-8") as f:
            expected = json.load(f)
        try:
            _, decoded = contract.decode(raw)
            decoded = typescript_shape(decoded)
        except (ContractError, Exception) as error:  # noqa: BLE001 - report every fixture, then fail
            print(f"FAIL {name}: {type(error).__name__}: {error}")
            failures += 1
            continue
        difference = first_difference(fixture_form(decoded), expected)
        if difference:
            print(f"FAIL {name}: {difference}")
            failures += 1
        else:
            print(f"ok {name}")
    print(f"{len(bins) - failures} of {len(bins)} golden fixtures decoded as their JSON says")
    return 1 if failures or not bins else 0


if __name__ == "__main__":
    sys.exit(main())
