/**
 * Shared helpers of the replay engine's tests: the test bundle (built once per process), payload
 * helpers and the "engine loop" of a cached run.
 * @module
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { defaultDataConverter, type Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import type { HistoryBuilder } from './history-builder.js';
import { WorkflowRun, type WorkflowRunOptions, type WorkflowTaskResult } from './workflow-run.js';

/** The module of test workflows. */
export const testWorkflowsPath = fileURLToPath(new URL('./test-workflows/workflows.ts', import.meta.url));

let bundle: Promise<WorkflowBundle> | undefined;

/** The bundle of `test-workflows/workflows.ts`, built once per test process. */
export function testBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({ workflowsPath: testWorkflowsPath });
  return bundle;
}

/** A value encoded as the default data converter does. */
export function payload(value: unknown): Payload {
  return defaultDataConverter.toPayload(value);
}

/** Decodes a payload with the default data converter. */
export function decode(p: Payload | null): unknown {
  return p === null ? undefined : defaultDataConverter.fromPayload(p);
}

/** Feeds a cached run the events it has not seen (what the worker does on a cache hit). */
export function nextTask(run: WorkflowRun, history: HistoryBuilder): WorkflowTaskResult {
  return run.activate(history.since(run.lastEventId));
}

/** Replays the whole history on a fresh run (what the worker does on a cache miss). */
export async function fullReplay(history: HistoryBuilder, options: WorkflowRunOptions = {}): Promise<WorkflowTaskResult> {
  const run = WorkflowRun.create(await testBundle(), history.identity, { logger: () => undefined, ...options });
  try {
    return run.activate(history.events);
  } finally {
    run.dispose();
  }
}

/** The commands of a completed result (fails the test with the failure otherwise). */
export function commandsOf(result: WorkflowTaskResult): WorkflowCommand[] {
  if (result.type !== 'completed') assert.fail(`workflow task failed: ${result.cause}: ${result.failure.message}`);
  return result.commands;
}

/** The `ScheduleActivityTask` the test workflows' options produce. */
export function scheduleActivity(activityId: string, activityType: string, ...args: unknown[]): WorkflowCommand {
  return {
    type: 'ScheduleActivityTask',
    activityId,
    activityType,
    taskQueue: null,
    header: {},
    input: args.map(payload),
    scheduleToCloseTimeoutMs: null,
    scheduleToStartTimeoutMs: null,
    startToCloseTimeoutMs: 10_000,
    heartbeatTimeoutMs: null,
    retryPolicy: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: null, maximumAttempts: 3, nonRetryableErrorTypes: ['PaymentDeclined'] },
  };
}
