import { openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { activityContext } from '../../../sdk/worker/activity-context.js';

/**
 * One line of the execution log the bench activity keeps when `BENCH_ACTIVITY_LOG` names a file:
 * which attempt of which activity began, when (epoch ms, the engine process's clock) and in which process.
 */
export interface ActivityExecution {
  readonly workflowId: string;
  readonly runId: string;
  readonly activityId: string;
  readonly attempt: number;
  readonly startedAt: number;
  /** The worker process that ran it (the engine process before or after a kill). */
  readonly pid: number;
}

/** The execution log's file descriptor, opened at the first execution. */
let executionLog: number | undefined;

/**
 * The trivial activity of the benchmark workflows: returns its input. With `BENCH_ACTIVITY_LOG`
 * set (the bench harness sets it on the Kafka engine process, for W4), it first appends an {@link ActivityExecution} line, so
 * the benchmark can prove afterwards that no completed activity ran again. The write is
 * synchronous so the line reaches the file before the result can be reported: a `kill -9` after
 * the completion cannot lose the line of the execution that produced it. The file stays open (one
 * write per execution, no open and close) so the log costs the W1 sweep next to nothing.
 */
export async function step(payload: string): Promise<string> {
  const file = process.env.BENCH_ACTIVITY_LOG;
  if (file) {
    executionLog ??= openSync(file, 'a');
    const { workflowId, runId, activityId, attempt } = activityContext().info;
    const execution: ActivityExecution = { workflowId, runId, activityId, attempt, startedAt: Date.now(), pid: process.pid };
    writeSync(executionLog, `${JSON.stringify(execution)}\n`);
  }
  return payload;
}

/** The worker's wall clock (ms since the epoch) when the activity ran: when a continuation got this far. */
export async function wallClock(): Promise<number> {
  return Date.now();
}

/** The lines of the execution logs, and how many were not JSON (a kill in the middle of an append would leave one). */
export async function readExecutionLogs(files: readonly string[]): Promise<{ executions: ActivityExecution[]; unreadableLines: number }> {
  const executions: ActivityExecution[] = [];
  let unreadableLines = 0;
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(error)));
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        executions.push(JSON.parse(line) as ActivityExecution);
      } catch {
        unreadableLines++;
      }
    }
  }
  return { executions, unreadableLines };
}
