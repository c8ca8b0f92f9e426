/**
 * A command one run sends to another workflow (a signal, a cancellation request, a child's start, a
 * child's answer to its parent): written to `commands.internal` in the sender's transaction, with
 * no reply (the target answers with a command of its own).
 * @module
 */
import type { Command } from '../../topics/schemas/command/index.js';

/** The command to `workflowId` (run `runId`, or its current run when null) in namespace `ns`. */
export function outgoing(ns: string, workflowId: string, runId: string | null, requestId: string, body: Command['body']): Command {
  return { requestId, namespace: ns, workflowId, runId, replyTo: null, body };
}
