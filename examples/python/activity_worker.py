"""A Logbook activity worker in Python, speaking the Kafka task protocol directly.

    python activity_worker.py --task-queue python-activities

Serves the activities in ACTIVITIES below on one task queue of one namespace:

1. Tasks: consume <prefix>.tasks.activity.<ns>.<queue> in the group
   <prefix>-activity-workers-<ns>-<queue> (read_committed, offsets committed by hand).
2. Claim: before running an attempt write ActivityTaskStarted. For a task at an offset below the
   partition's end when the partition was assigned (it may have run already, under a worker that
   died before committing), send the claim with a reply address and run the task only if the
   engine answers Accepted; anything else means the attempt is over or held by another worker.
3. Heartbeat: ActivityTaskHeartbeat with the progress details (the next attempt receives them).
4. Cancel: every worker reads <prefix>.tasks.control.<ns>.<queue> in a group of its own; a record
   naming a running attempt cancels it, and the worker answers ActivityTaskCanceled.
5. Answer: ActivityTaskCompleted with the result, or ActivityTaskFailed with a failure, then
   commit the task's offset. Every answer for one attempt carries the attempt's scheduledEventId,
   attempt and this worker's identity.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
import time
import traceback
import uuid
from typing import Any, Callable

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition

from logbook_contract import ContractError, json_payload, payload_value
from logbook_kafka import ReplyReader, add_connection_arguments, client_config, command_producer, contract_of, send_command


HEARTBEAT_THROTTLE_S = 1.0


class ApplicationError(Exception):
    """An activity failure with a type (the failure's code) and whether retrying can help."""

    def __init__(self, message: str, error_type: str = "ApplicationError", non_retryable: bool = False) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.non_retryable = non_retryable


class Cancelled(Exception):
    """Raised by ActivityContext.heartbeat once the engine asked to cancel the attempt."""


class ActivityContext:
    """What a running activity can see and do: its task, heartbeats, cancellation."""

    def __init__(self, task: dict, send_heartbeat: Callable[[Any], None], cancelled: threading.Event) -> None:
        self.task = task
        self.attempt = task["attempt"]
        self.idempotency_key = task["idempotencyKey"]
        self.heartbeat_details = payload_value(task["heartbeatDetails"])
        self._send_heartbeat = send_heartbeat
        self._cancelled = cancelled
        self._last_sent = 0.0
        self._last_details: Any = None

    def heartbeat(self, details: Any = None) -> None:
        """Records progress (sent at most once a second); raises Cancelled once the attempt is cancelled."""
        if self._cancelled.is_set():
            raise Cancelled("the activity was cancelled")
        self._last_details = details
        if time.monotonic() - self._last_sent >= HEARTBEAT_THROTTLE_S:
            self._last_sent = time.monotonic()
            self._send_heartbeat(details)

    def last_details_payload(self) -> dict | None:
        """The last heartbeat's details, sent or throttled, for the attempt's answer."""
        return None if self._last_details is None else json_payload(self._last_details)

    def sleep(self, seconds: float) -> None:
        """Sleeps, waking early (with Cancelled) if the attempt is cancelled."""
        if self._cancelled.wait(seconds):
            raise Cancelled("the activity was cancelled")


# The example's activities: what the polyglot example workflows call on their Python task queue.
def quote_shipping(context: ActivityContext, parcel: dict) -> dict:
    weight = float(parcel["weightKg"])
    if weight > 30:
        raise ApplicationError(f"parcel {parcel['parcelId']} weighs {weight} kg; carriers take at most 30 kg", "TooHeavy", non_retryable=True)
    carrier = "PostNL" if parcel["destination"] == "NL" else "DHL"
    return {"parcelId": parcel["parcelId"], "carrier": carrier, "priceCents": 495 + int(weight * 100), "quotedBy": f"python@{socket.gethostname()}"}


def track_parcel(context: ActivityContext, parcel_id: str) -> str:
    # Heartbeats until delivered or cancelled; a retry resumes from the last checkpoint.
    checkpoint = context.heartbeat_details or 0
    print(f"tracking {parcel_id} from checkpoint {checkpoint}", flush=True)
    while True:
        checkpoint += 1
        context.heartbeat(checkpoint)
        context.sleep(0.2)


ACTIVITIES: dict[str, Callable[..., Any]] = {"quoteShipping": quote_shipping, "trackParcel": track_parcel}


class Worker:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.contract = contract_of(args)
        self.identity = f"python-worker@{socket.gethostname()}-{os.getpid()}"
        self.commands = command_producer(args, "worker")
        self.replies: ReplyReader | None = None
        queue = f"{args.namespace}.{args.task_queue}"
        self.tasks_topic = f"{args.prefix}.tasks.activity.{queue}"
        self.control_topic = f"{args.prefix}.tasks.control.{queue}"
        self.ends_at_assignment: dict[int, int] = {}
        self.running: dict[str, threading.Event] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def log(self, line: str) -> None:
        print(line, flush=True)

    def wait_for_topics(self) -> None:
        # The engine creates a queue's topics when it first schedules a task there.
        probe = Consumer({**client_config(self.args, "probe"), "group.id": f"probe-{uuid.uuid4()}"})
        announced = False
        while not self.stopping.is_set():
            topics = probe.list_topics(timeout=10).topics
            if self.tasks_topic in topics and self.control_topic in topics:
                break
            if not announced:
                self.log(f"waiting for {self.tasks_topic} (the engine creates it when it first schedules a task on the queue)")
                announced = True
            time.sleep(1)
        probe.close()

    def on_assign(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        for tp in partitions:
            _, high = consumer.get_watermark_offsets(TopicPartition(tp.topic, tp.partition), timeout=30)
            self.ends_at_assignment[tp.partition] = high
        self.log(f"assigned partitions {sorted(tp.partition for tp in partitions)} of {self.tasks_topic}")

    def read_control(self) -> None:
        """Cancellations: a group of this worker's own, so it sees every one."""
        consumer = Consumer({**client_config(self.args, "control"), "group.id": f"{self.args.prefix}-activity-control-{self.args.namespace}-{self.args.task_queue}-{self.identity}-{uuid.uuid4()}", "isolation.level": "read_committed", "auto.offset.reset": "earliest"})
        consumer.subscribe([self.control_topic])
        while not self.stopping.is_set():
            message = consumer.poll(0.5)
            if message is None or message.error() or message.value() is None:
                continue
            try:
                _, control = self.contract.decode(message.value())
            except ContractError as error:
                self.log(f"skipped an unreadable control record: {error}")
                continue
            key = f"{control['workflowId']}:{control['runId']}:{control['scheduledEventId']}"
            with self.lock:
                event = self.running.get(key)
            if event is not None:
                self.log(f"cancel requested for activity {control['activityId']} of {control['workflowId']}: {control['reason']}")
                event.set()
        consumer.close()

    def answer(self, task: dict, branch: str, fields: dict, reply_to: dict | None = None, request_id: str | None = None) -> None:
        ref = {"scheduledEventId": task["scheduledEventId"], "attempt": task["attempt"], "identity": self.identity}
        send_command(self.commands, self.contract, self.args, task["workflowId"], task["runId"], (f"logbook.{branch}Request", {**ref, **fields}), reply_to, request_id)

    def answer_until_written(self, task: dict, branch: str, fields: dict) -> bool:
        """Writes an answer, trying again while the worker runs (one request id: it lands once); False if stopped first."""
        request_id = str(uuid.uuid4())
        pause = 0.2
        while not self.stopping.is_set():
            try:
                self.answer(task, branch, fields, request_id=request_id)
                return True
            except (KafkaException, BufferError) as error:
                self.log(f"writing {branch} of {task['workflowId']} failed ({error}); trying again in {pause:.1f} s")
                time.sleep(pause)
                pause = min(pause * 2, 5.0)
        return False

    def claim(self, task: dict, may_be_redelivered: bool) -> str:
        """'accepted', 'refused' (do not run; the task is done) or 'unanswered' (stopping: leave it uncommitted)."""
        if not may_be_redelivered:
            return "accepted" if self.answer_until_written(task, "ActivityTaskStarted", {}) else "unanswered"
        # A redelivery: run only if the engine confirms the attempt is still pending and ours.
        self.replies = self.replies or ReplyReader(self.args, self.contract)
        request_id = str(uuid.uuid4())
        while not self.stopping.is_set():
            reply_to = self.replies.reply_to()
            try:
                # One request id for every try: the shard applies the claim once.
                self.answer(task, "ActivityTaskStarted", {}, reply_to, request_id)
            except KafkaException as error:
                self.log(f"the claim of {task['workflowId']} was not written ({error}); trying again")
                time.sleep(1)
                continue
            reply = self.replies.wait(reply_to, 10)
            if reply is not None:
                return "accepted" if reply["kind"] == "Accepted" else "refused"
        return "unanswered"

    def run_task(self, task: dict, may_be_redelivered: bool) -> bool:
        """Claims, runs and answers one task; True when it is done and its offset may be committed."""
        name = task["activityType"]
        where = f"{name} (activity {task['activityId']} of {task['workflowId']}, attempt {task['attempt']})"
        claimed = self.claim(task, may_be_redelivered)
        if claimed == "refused":
            self.log(f"skipped {where}: the engine refused the claim (already answered or held elsewhere)")
            return True
        if claimed == "unanswered":
            return False
        key = f"{task['workflowId']}:{task['runId']}:{task['scheduledEventId']}"
        cancelled = threading.Event()
        with self.lock:
            self.running[key] = cancelled

        def send_heartbeat(details: Any) -> None:
            try:
                self.answer(task, "ActivityTaskHeartbeat", {"details": None if details is None else json_payload(details)})
            except (KafkaException, BufferError) as error:
                # A lost heartbeat is not the activity's failure; the next one, or the answer, carries the details.
                self.log(f"a heartbeat of {where} was not written: {error}")

        context = ActivityContext(task, send_heartbeat, cancelled)
        try:
            function = ACTIVITIES.get(name)
            if function is None:
                raise ApplicationError(f"activity type '{name}' is not registered on this Python worker (known: {', '.join(ACTIVITIES)})", "ActivityTypeNotFound")
            outcome = ("ActivityTaskCompleted", {"result": json_payload(function(context, *[payload_value(p) for p in task["input"]]))}, f"completed {where}")
        except Cancelled:
            outcome = ("ActivityTaskCanceled", {"details": context.last_details_payload()}, f"cancelled {where}")
        except Exception as error:  # noqa: BLE001 - every failure is reported to the engine
            is_app = isinstance(error, ApplicationError)
            failure = {
                "message": str(error),
                "source": "PythonExample",
                "stackTrace": traceback.format_exc(),
                "code": error.error_type if is_app else type(error).__name__,
                "nonRetryable": error.non_retryable if is_app else False,
                "details": None,
                "cause": None,
            }
            outcome = ("ActivityTaskFailed", {"failure": failure, "lastHeartbeatDetails": context.last_details_payload()}, f"failed {where}: {error}")
        finally:
            with self.lock:
                self.running.pop(key, None)
        branch, fields, line = outcome
        # Written outside the activity's try: a write that fails is retried, never reported as the activity's failure.
        if not self.answer_until_written(task, branch, fields):
            return False
        self.log(line)
        return True

    def run(self) -> None:
        self.wait_for_topics()
        threading.Thread(target=self.read_control, daemon=True).start()
        consumer = Consumer({
            **client_config(self.args, "worker"),
            "group.id": f"{self.args.prefix}-activity-workers-{self.args.namespace}-{self.args.task_queue}",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            # A crashed worker's partitions move on after 10 s (librdkafka's default is 45 s).
            "session.timeout.ms": 10_000,
            # Activities run in the polling thread: allow the longest start-to-close of the examples.
            "max.poll.interval.ms": 15 * 60_000,
        })
        consumer.subscribe([self.tasks_topic], on_assign=self.on_assign)
        self.log(f"serving {', '.join(ACTIVITIES)} on task queue {self.args.task_queue} of namespace {self.args.namespace} as {self.identity}")
        while not self.stopping.is_set():
            message = consumer.poll(0.5)
            if message is None:
                continue
            if message.error():
                if message.error().code() != KafkaError._PARTITION_EOF:
                    self.log(f"consumer error: {message.error()}")
                continue
            if message.value() is not None:
                try:
                    _, task = self.contract.decode(message.value())
                except ContractError as error:
                    # Not a task this worker can read: skip it rather than stop on it at every restart.
                    self.log(f"skipped the record at partition {message.partition()} offset {message.offset()}: {error}")
                    task = None
                may_be_redelivered = message.offset() < self.ends_at_assignment.get(message.partition(), 0)
                if task is not None and not self.run_task(task, may_be_redelivered):
                    break  # stopping before the task was answered: it stays uncommitted for the next worker
            try:
                # Answered (or refused): the task is done; commit past it.
                consumer.commit(offsets=[TopicPartition(message.topic(), message.partition(), message.offset() + 1)], asynchronous=False)
            except KafkaException as error:
                # The partition moved to another worker (a rebalance): that worker's claim decides.
                self.log(f"committing past offset {message.offset()} of partition {message.partition()} failed: {error}")
        consumer.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_connection_arguments(parser)
    parser.add_argument("--task-queue", default="python-activities")
    worker = Worker(parser.parse_args())
    signal.signal(signal.SIGTERM, lambda *_: worker.stopping.set())
    try:
        worker.run()
    except KeyboardInterrupt:
        worker.stopping.set()
    return 0


if __name__ == "__main__":
    sys.exit(main())
