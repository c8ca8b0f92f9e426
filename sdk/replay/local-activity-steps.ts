/**
 * The activations of one workflow task that runs local activities: the code runs, asks for local
 * activities, gets their outcomes as jobs in a next activation of the same task, and so on until it
 * asks for none (or closes the run). The task's commands are each activation's commands followed by
 * the markers of the local activities it asked for — built the same way live (outcomes from the
 * worker) and on replay (outcomes from the task's recorded markers), so both produce the same list.
 * @module
 */
import type { DataConverter } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { ActivationJob, LocalActivityResolution } from '../workflow/bridge.js';
import { decodeOptional, failureInfoFromFailure } from './conversions.js';
import { localActivityMarkerCommand, type LocalActivityOutcome, type LocalActivityRequest } from './local-activity-markers.js';

/** What one activation produced. */
export interface ActivationStep {
  commands: WorkflowCommand[];
  localActivities: LocalActivityRequest[];
}

const CLOSING: ReadonlySet<string> = new Set(['CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution']);

/** True when the task has more local activities to run: some were asked for and the run is not closing. */
export function wantsLocalActivities(commands: readonly WorkflowCommand[], step: ActivationStep): boolean {
  return step.localActivities.length > 0 && !commands.some((c) => CLOSING.has(c.type));
}

/** The activation job that gives `outcome` to the workflow code. */
export function resolutionJobOf(outcome: LocalActivityOutcome, converter: DataConverter): ActivationJob {
  let resolution: LocalActivityResolution;
  if (outcome.kind === 'completed') resolution = { kind: 'completed', value: decodeOptional(converter, outcome.result) };
  else if (outcome.kind === 'failed') resolution = { kind: 'failed', failure: failureInfoFromFailure(outcome.failure, converter), retryState: outcome.retryState };
  else resolution = { kind: 'backoff', failure: failureInfoFromFailure(outcome.failure, converter), nextAttempt: outcome.attempt + 1, backoffMs: outcome.backoffMs };
  return { type: 'resolveLocalActivity', seq: outcome.seq, resolution };
}

/** Appends the outcomes' markers to `commands` and returns the jobs of the next activation. */
export function recordOutcomes(commands: WorkflowCommand[], outcomes: readonly LocalActivityOutcome[], converter: DataConverter): ActivationJob[] {
  const ordered = [...outcomes].sort((a, b) => a.seq - b.seq);
  commands.push(...ordered.map(localActivityMarkerCommand));
  return ordered.map((o) => resolutionJobOf(o, converter));
}
