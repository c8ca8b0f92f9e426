"""Reads Logbook's history stream and prints how long workflows took, per workflow type.

    python history_analyst.py [--follow]

Reads <prefix>.history from the beginning with isolation.level=read_committed (shards write in
transactions; an aborted one's events must not count), decodes each event with the published
schemas, pairs each run's WorkflowExecutionStarted with the event that closed it, and prints one
line per workflow type once it has read to the end (or, with --follow, every 10 s).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid

from confluent_kafka import Consumer, KafkaError, TopicPartition

from logbook_kafka import add_connection_arguments, client_config, contract_of

CLOSING = {
    "WorkflowExecutionCompleted": "completed",
    "WorkflowExecutionFailed": "failed",
    "WorkflowExecutionTimedOut": "timed out",
    "WorkflowExecutionCanceled": "canceled",
    "WorkflowExecutionTerminated": "terminated",
    "WorkflowExecutionContinuedAsNew": "continued",
}


class Durations:
    def __init__(self) -> None:
        self.started: dict[tuple[str, str, str], int] = {}
        self.closed: dict[str, list[tuple[str, int]]] = {}

    def add(self, event: dict) -> None:
        run = (event["namespace"], event["workflowId"], event["runId"])
        kind = event["eventType"]
        if kind == "WorkflowExecutionStarted":
            self.started[run] = event["eventTime"]
        elif kind in CLOSING and run in self.started:
            self.closed.setdefault(event["workflowType"], []).append((CLOSING[kind], event["eventTime"] - self.started.pop(run)))

    def report(self) -> str:
        lines = [f"{'workflow type':<24} {'closed':>6} {'outcomes':<28} {'p50 ms':>8} {'max ms':>8}"]
        for workflow_type, runs in sorted(self.closed.items()):
            times = [ms for _, ms in runs]
            outcomes = ", ".join(f"{n} {o}" for o, n in sorted({o: sum(1 for x, _ in runs if x == o) for o, _ in runs}.items()))
            lines.append(f"{workflow_type:<24} {len(runs):>6} {outcomes:<28} {statistics.median(times):>8.0f} {max(times):>8}")
        lines.append(f"{len(self.started)} runs still open")
        return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_connection_arguments(parser)
    parser.add_argument("--follow", action="store_true", help="keep reading and print every 10 s")
    args = parser.parse_args()
    contract = contract_of(args)
    topic = f"{args.prefix}.history"
    consumer = Consumer({
        **client_config(args, "analyst"),
        "group.id": f"{args.prefix}-analyst-{uuid.uuid4()}",
        "isolation.level": "read_committed",
        "enable.auto.commit": False,
        "enable.partition.eof": True,
    })
    partitions = consumer.list_topics(topic, timeout=30).topics[topic].partitions
    if not partitions:
        print(f"topic {topic} does not exist: is --prefix right?", file=sys.stderr)
        return 2
    consumer.assign([TopicPartition(topic, p, 0) for p in partitions])
    durations = Durations()
    at_end: set[int] = set()
    events = 0
    last_report = time.monotonic()
    while True:
        message = consumer.poll(1.0)
        if message is not None and message.error():
            if message.error().code() == KafkaError._PARTITION_EOF:
                at_end.add(message.partition())
            else:
                print(f"consumer error: {message.error()}", file=sys.stderr)
        elif message is not None and message.value() is not None:
            at_end.discard(message.partition())
            _, event = contract.decode(message.value())
            durations.add(event)
            events += 1
        if not args.follow and len(at_end) == len(partitions):
            break
        if args.follow and time.monotonic() - last_report >= 10:
            print(durations.report(), flush=True)
            last_report = time.monotonic()
    consumer.close()
    print(f"read {events} history events from {len(partitions)} partitions of {topic}")
    print(durations.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
