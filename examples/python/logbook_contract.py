"""Logbook's wire contract for Python: the published .avsc files, single-object encoding, payloads.

Every Logbook record on Kafka (commands, history events, tasks, replies) is Avro. Without a schema
registry a value is single-object encoded: the two bytes C3 01, the CRC-64-AVRO fingerprint of the
writer schema (8 bytes, little-endian), then the Avro binary body. The schemas and their
fingerprints are published in topics/schemas/avsc (index.json lists them); `schemas export DIR`
writes the same files anywhere.

Unions of records come back from fastavro as (full name, value) pairs; `tagged` turns them into the
shape the TypeScript types use, {"type": <tag>, ...fields}, where the tag is the record's short name
without its suffix (logbook.StartWorkflowExecutionRequest -> StartWorkflowExecution).
"""
from __future__ import annotations

import datetime
import io
import json
import os
from typing import Any

import fastavro

SINGLE_OBJECT_MAGIC = b"\xc3\x01"
UNION_BRANCH_SUFFIXES = ("EventAttributes", "CommandAttributes", "SearchAttribute", "Request", "Message")
DEFAULT_SCHEMAS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "topics", "schemas", "avsc")


class ContractError(Exception):
    """A value that is not a Logbook record this contract knows."""


class Contract:
    """The schemas of one contract folder, by fingerprint and by (record, version)."""

    def __init__(self, schemas_dir: str = DEFAULT_SCHEMAS_DIR) -> None:
        index_path = os.path.join(schemas_dir, "index.json")
        try:
            with open(index_path, encoding="utf-8") as f:
                index = json.load(f)
        except FileNotFoundError:
            raise ContractError(f"no index.json in {schemas_dir}: point --schemas at a folder written by `schemas export`") from None
        self._by_fingerprint: dict[bytes, tuple[dict, Any]] = {}
        self._latest: dict[str, tuple[bytes, Any]] = {}
        for entry in index:
            with open(os.path.join(schemas_dir, entry["file"]), encoding="utf-8") as f:
                # Each file is self-contained, so it parses without a shared name registry.
                schema = fastavro.parse_schema(json.load(f), named_schemas={})
            # index.json writes the fingerprint big-endian; on the wire it is little-endian.
            wire = bytes.fromhex(entry["fingerprint"])[::-1]
            self._by_fingerprint[wire] = (entry, schema)
            if entry["latest"]:
                self._latest[entry["record"]] = (wire, schema)

    def decode(self, value: bytes) -> tuple[str, dict]:
        """Decodes a single-object encoded value: (record name, value with unions tagged)."""
        if len(value) < 10 or value[:2] != SINGLE_OBJECT_MAGIC:
            raise ContractError("not Avro single-object encoding (a registry-framed value starts with 00 instead)")
        found = self._by_fingerprint.get(value[2:10])
        if found is None:
            raise ContractError(f"unknown writer schema fingerprint {value[2:10][::-1].hex()}: is the contract folder older than the engine?")
        entry, schema = found
        body = fastavro.schemaless_reader(io.BytesIO(value[10:]), schema, None, return_record_name=True, return_record_name_override=True)
        return entry["record"], tagged(body)

    def encode(self, record: str, value: dict) -> bytes:
        """Encodes a value of the latest version of `record` (unions given as (full name, value) pairs)."""
        if record not in self._latest:
            raise ContractError(f"no schema for record {record}")
        fingerprint, schema = self._latest[record]
        out = io.BytesIO()
        out.write(SINGLE_OBJECT_MAGIC + fingerprint)
        fastavro.schemaless_writer(out, schema, value)
        return out.getvalue()


def union_tag(full_name: str) -> str:
    """logbook.TimerFiredEventAttributes -> TimerFired."""
    short = full_name.rsplit(".", 1)[-1]
    for suffix in UNION_BRANCH_SUFFIXES:
        if short.endswith(suffix) and len(short) > len(suffix):
            return short[: -len(suffix)]
    return short


def tagged(value: Any) -> Any:
    """fastavro's decoded value in the TypeScript shape: union records tagged, times as epoch ms."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        name, inner = value
        return {"type": union_tag(name), **tagged(inner)} if isinstance(inner, dict) else tagged(inner)
    if isinstance(value, dict):
        return {k: tagged(v) for k, v in value.items()}
    if isinstance(value, list):
        return [tagged(v) for v in value]
    if isinstance(value, datetime.datetime):
        return int(round(value.timestamp() * 1000))
    return value


def json_payload(value: Any) -> dict:
    """A logbook.Payload holding `value` as JSON (what the TypeScript SDK writes by default)."""
    return {"metadata": {"encoding": b"json/plain"}, "data": json.dumps(value, separators=(",", ":")).encode("utf-8")}


def payload_value(payload: dict | None) -> Any:
    """The value of a logbook.Payload, by its `encoding` metadata."""
    if payload is None:
        return None
    encoding = payload["metadata"].get("encoding", b"json/plain").decode("utf-8")
    if encoding == "json/plain":
        return json.loads(payload["data"].decode("utf-8"))
    if encoding == "binary/null":
        return None
    if encoding == "binary/plain":
        return payload["data"]
    raise ContractError(f"payload encoding {encoding} is not one this example decodes")
