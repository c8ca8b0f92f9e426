"""Kafka plumbing shared by the Python examples: client settings, topic names, commands, replies.

Topic names follow the engine's catalog (prefix `logbook` by default):
  <prefix>.commands                          commands, keyed ns/workflowId (murmur2 partitioner)
  <prefix>.replies                           replies, keyed by replyTo.requestId
  <prefix>.history                           history events, keyed ns/workflowId/runId/eventId
  <prefix>.tasks.activity.<ns>.<queue>       activity tasks of a task queue
  <prefix>.tasks.control.<ns>.<queue>        cancellations of that queue's running activities
"""
from __future__ import annotations

import argparse
import os
import socket
import time
import uuid

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from logbook_contract import Contract


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags every example takes to reach the cluster and name the deployment."""
    parser.add_argument("--brokers", default=os.environ.get("LOGBOOK_KAFKA_BROKERS", "127.0.0.1:9092"), help="bootstrap servers (default: $LOGBOOK_KAFKA_BROKERS or 127.0.0.1:9092)")
    parser.add_argument("--prefix", default=os.environ.get("LOGBOOK_PREFIX", "logbook"), help="the deployment's topic prefix (default logbook)")
    parser.add_argument("--namespace", default="default")
    parser.add_argument("--schemas", default=None, help="a folder written by `schemas export` (default: the repository's topics/schemas/avsc)")


def security_config(env: os._Environ = os.environ) -> dict:
    """SASL and TLS from the variables the engine reads too (LOGBOOK_KAFKA_SASL_*, LOGBOOK_KAFKA_TLS*),
    refusing the same contradictions the engine refuses."""
    mechanism = env.get("LOGBOOK_KAFKA_SASL_MECHANISM", "").strip().upper()
    username = env.get("LOGBOOK_KAFKA_SASL_USERNAME", "").strip()
    password = env.get("LOGBOOK_KAFKA_SASL_PASSWORD", "")
    if mechanism and mechanism not in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"):
        raise SystemExit(f"LOGBOOK_KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512, got '{mechanism.lower()}'")
    if mechanism and not (username and password):
        raise SystemExit(f"SASL {mechanism.lower()} needs LOGBOOK_KAFKA_SASL_USERNAME and LOGBOOK_KAFKA_SASL_PASSWORD")
    if not mechanism and (username or password):
        raise SystemExit("a SASL username or password is set but no LOGBOOK_KAFKA_SASL_MECHANISM")
    flag = env.get("LOGBOOK_KAFKA_TLS", "").strip().lower()
    if flag not in ("", "1", "true", "yes", "on", "0", "false", "no", "off"):
        raise SystemExit(f"LOGBOOK_KAFKA_TLS must be true or false, got '{flag}'")
    files = {setting: env[variable] for variable, setting in (("LOGBOOK_KAFKA_TLS_CA", "ssl.ca.location"), ("LOGBOOK_KAFKA_TLS_CERT", "ssl.certificate.location"), ("LOGBOOK_KAFKA_TLS_KEY", "ssl.key.location")) if env.get(variable)}
    if flag in ("0", "false", "no", "off") and files:
        raise SystemExit("LOGBOOK_KAFKA_TLS is off, but a TLS file is named: remove one or the other")
    tls = flag in ("1", "true", "yes", "on") or bool(files)
    config: dict = {"security.protocol": ("SASL_SSL" if tls else "SASL_PLAINTEXT") if mechanism else ("SSL" if tls else "PLAINTEXT"), **files}
    if mechanism:
        config.update({"sasl.mechanism": mechanism, "sasl.username": username, "sasl.password": password})
    return config


def client_config(args: argparse.Namespace, role: str) -> dict:
    """Settings common to every client: the brokers, security, and a client id naming role, host and pid."""
    return {"bootstrap.servers": args.brokers, "client.id": f"logbook-python-{role}-{socket.gethostname()}-{os.getpid()}", **security_config()}


def contract_of(args: argparse.Namespace) -> Contract:
    """The contract folder the flags name, or the repository's."""
    return Contract(args.schemas) if args.schemas else Contract()


def command_producer(args: argparse.Namespace, role: str) -> Producer:
    """A producer for commands: Java's murmur2 partitioner, so a command lands on its workflow's shard."""
    return Producer({**client_config(args, role), "partitioner": "murmur2_random", "enable.idempotence": True})


def workflow_key(namespace: str, workflow_id: str) -> bytes:
    """The key of a workflow's commands: ns/workflowId, UTF-8."""
    return f"{namespace}/{workflow_id}".encode("utf-8")


def send_command(producer: Producer, contract: Contract, args: argparse.Namespace, workflow_id: str, run_id: str | None, body: tuple[str, dict], reply_to: dict | None = None, request_id: str | None = None) -> None:
    """Writes one logbook.Command and waits until the broker has it. `body` is (branch name, fields)."""
    command = {
        # Repeat a request id to retry a command: the shard applies it once.
        "requestId": request_id or str(uuid.uuid4()),
        "namespace": args.namespace,
        "workflowId": workflow_id,
        "runId": run_id,
        "replyTo": reply_to,
        "body": body,
    }
    errors: list[str] = []
    producer.produce(f"{args.prefix}.commands", key=workflow_key(args.namespace, workflow_id), value=contract.encode("Command", command), on_delivery=lambda err, _msg: err and errors.append(str(err)))
    producer.flush(30)
    if errors:
        raise KafkaException(f"the command for {workflow_id} was not written: {errors[0]}")


class ReplyReader:
    """Reads <prefix>.replies from its end (no consumer group): start it before sending a command."""

    def __init__(self, args: argparse.Namespace, contract: Contract) -> None:
        self.contract = contract
        self.gateway_id = f"py-{uuid.uuid4()}"
        self.topic = f"{args.prefix}.replies"
        self.consumer = Consumer({**client_config(args, "replies"), "group.id": self.gateway_id, "enable.auto.commit": False, "isolation.level": "read_committed"})
        metadata = self.consumer.list_topics(self.topic, timeout=30)
        partitions = metadata.topics[self.topic].partitions
        if not partitions:
            raise KafkaException(f"topic {self.topic} does not exist: is the engine running with prefix {args.prefix}?")
        starts = []
        for p in partitions:
            _, high = self.consumer.get_watermark_offsets(TopicPartition(self.topic, p), timeout=30)
            starts.append(TopicPartition(self.topic, p, high))
        self.consumer.assign(starts)
        # Replies to this reader's requests read while waiting for another one.
        self.pending: set[str] = set()
        self.early: dict[str, dict] = {}

    def reply_to(self) -> dict:
        """A fresh reply address of this reader."""
        address = {"gatewayId": self.gateway_id, "requestId": str(uuid.uuid4())}
        self.pending.add(address["requestId"])
        return address

    def wait(self, reply_to: dict, timeout_s: float) -> dict | None:
        """The reply to `reply_to`, or None when none came within the timeout."""
        wanted = reply_to["requestId"]
        deadline = time.monotonic() + timeout_s
        while wanted not in self.early and time.monotonic() < deadline:
            message = self.consumer.poll(min(0.5, max(0.0, deadline - time.monotonic())))
            if message is None or message.error() or message.value() is None:
                continue
            # The key is the request id: other callers' replies are skipped undecoded.
            key = message.key().decode("utf-8") if message.key() else ""
            if key in self.pending:
                _, reply = self.contract.decode(message.value())
                self.early[key] = reply
        self.pending.discard(wanted)
        return self.early.pop(wanted, None)

    def close(self) -> None:
        self.consumer.close()
