/**
 * Run ids are unique per workflow id: history records are keyed `ns/workflowId/runId/eventId` in
 * a compacted topic, so a second run under an earlier run's id would overwrite that run's events.
 * A client chooses the run id of a start (so it can start fire-and-forget); when a start names an
 * id an earlier run used — a start redelivered after a later run began, under a reuse policy
 * that allows a new run — the new run gets a fresh id derived from both, as Temporal gives every
 * new run a fresh id. The machine cannot look history up, so the processor tells it
 * ({@link InputFacts}).
 * @module
 */
import type { Command } from '../../topics/schemas/command/index.js';
import { reusedRunIdOf } from './deterministic-seed.js';

/** What the processor knows about an input beyond the workflow's state: facts the pure machine cannot look up. */
export interface InputFacts {
  /** The start names a run id that an earlier run of this workflow id used (not the current run). */
  readonly runIdUsedEarlier?: boolean;
}

/** No facts: what an input needs when it is not a start naming an earlier run's id. */
export const NO_FACTS: InputFacts = {};

/** The run id a start command asks for, or null for other commands. */
export function requestedRunIdOf(command: Command): string | null {
  const body = command.body;
  if (body.type === 'StartWorkflowExecution') return body.runId;
  if (body.type === 'SignalWithStartWorkflowExecution') return body.start.runId;
  return null;
}

/** The start with its run id replaced by the fresh one for a reused id (other commands unchanged). */
export function withFreshRunId<C extends Command>(command: C, currentRunId: string): C {
  const body = command.body;
  if (body.type === 'StartWorkflowExecution') return { ...command, body: { ...body, runId: reusedRunIdOf(body.runId, currentRunId) } };
  if (body.type === 'SignalWithStartWorkflowExecution') {
    return { ...command, body: { ...body, start: { ...body.start, runId: reusedRunIdOf(body.start.runId, currentRunId) } } };
  }
  return command;
}
