"""Starts a Logbook workflow by writing a command to Kafka, and optionally waits for its result.

    python start_workflow.py --workflow-type quoteParcel --task-queue polyglot \
        --workflow-id parcel-1 --args '[{"parcelId": "p-1", "weightKg": 2.5, "destination": "NL"}]' --wait

Prints the run id; with --wait also the result (exit 0) or the failure (exit 1). A start that finds
a running workflow of that id is refused (exit 1): the command asks for conflict policy Fail.
"""
from __future__ import annotations

import argparse
import json
import socket
import sys
import uuid

from logbook_contract import json_payload, payload_value
from logbook_kafka import ReplyReader, add_connection_arguments, command_producer, contract_of, send_command


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_connection_arguments(parser)
    parser.add_argument("--workflow-type", required=True)
    parser.add_argument("--task-queue", required=True)
    parser.add_argument("--workflow-id", default=None, help="default: a new UUID")
    parser.add_argument("--args", default="[]", help="the workflow's arguments as a JSON array")
    parser.add_argument("--wait", action="store_true", help="wait for the workflow's result")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for each reply (default 60)")
    args = parser.parse_args()
    try:
        workflow_args = json.loads(args.args)
    except json.JSONDecodeError as error:
        parser.error(f"--args is not JSON: {error}")
    if not isinstance(workflow_args, list):
        parser.error("--args must be a JSON array (one element per workflow argument)")
    workflow_id = args.workflow_id or str(uuid.uuid4())

    contract = contract_of(args)
    replies = ReplyReader(args, contract)
    producer = command_producer(args, "starter")
    start = {
        "runId": str(uuid.uuid4()),
        "workflowType": args.workflow_type,
        "taskQueue": args.task_queue,
        "input": [json_payload(a) for a in workflow_args],
        "identity": f"python-starter@{socket.gethostname()}",
        "workflowIdConflictPolicy": "Fail",
        "workflowIdReusePolicy": "AllowDuplicate",
        "memo": {},
        "searchAttributes": {},
        "header": {},
    }
    reply_to = replies.reply_to()
    send_command(producer, contract, args, workflow_id, None, ("logbook.StartWorkflowExecutionRequest", start), reply_to)
    reply = replies.wait(reply_to, args.timeout)
    if reply is None:
        print(f"no answer within {args.timeout:.0f} s: is an engine running on {args.brokers} with prefix {args.prefix}?", file=sys.stderr)
        return 2
    if reply["kind"] == "Error":
        print(f"refused: {reply['failure']['message']} ({reply['failure']['code']})", file=sys.stderr)
        return 1
    verb = "already started" if reply["kind"] == "AlreadyStarted" else "started"
    print(f"{verb} {args.workflow_type} workflow {workflow_id} run {reply['runId']}", flush=True)
    if not args.wait:
        return 0

    reply_to = replies.reply_to()
    send_command(producer, contract, args, workflow_id, reply["runId"], ("logbook.AwaitWorkflowExecutionResultRequest", {"followRuns": True}), reply_to)
    result = replies.wait(reply_to, args.timeout)
    replies.close()
    if result is None:
        print(f"the workflow did not finish within {args.timeout:.0f} s", file=sys.stderr)
        return 2
    if result["failure"] is not None:
        failure = result["failure"]
        cause = failure.get("cause")
        because = f"; cause: {cause['message']} ({cause['code']})" if cause else ""
        print(f"{result['executionStatus']}: {failure['message']} ({failure['code']}){because}", flush=True)
        return 1
    print(f"{result['executionStatus']}: {json.dumps(payload_value(result['payload']))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
