/**
 * Workflows for the workflow retry policy, cron and task rate conformance tests.
 * @module
 */
import { ApplicationFailure, sleep, workflowInfo } from '../../sdk/workflow/index.js';

/** What {@link flaky} is asked to do. */
export interface FlakyInput {
  /** The attempt that completes; 0 = none (every attempt fails). */
  succeedOn: number;
  /** The failure type thrown by the failing attempts. */
  failureType: string;
  /** Throw a non-retryable failure instead. */
  nonRetryable?: boolean;
}

/** Fails (by `failureType`) until attempt `succeedOn`, then returns the attempt and the input it was started with. */
export async function flaky(input: FlakyInput): Promise<{ attempt: number; input: FlakyInput }> {
  const { attempt } = workflowInfo();
  if (input.succeedOn === 0 || attempt < input.succeedOn) {
    throw new ApplicationFailure(`attempt ${attempt} failed`, input.failureType, input.nonRetryable ?? false);
  }
  return { attempt, input };
}

/** A hot workflow: `steps` 1 ms sleeps in a row, one workflow task each. Returns the step count. */
export async function hotLoop(steps: number): Promise<number> {
  for (let i = 0; i < steps; i++) await sleep(1);
  return steps;
}

/** A cron run: counts its runs by adding one to the last run's result (`workflowInfo().lastResult`). */
export async function cronCounter(): Promise<{ count: number; lastFailure: string | null }> {
  const { lastResult, lastFailure } = workflowInfo();
  const previous = lastResult as { count: number } | undefined;
  return { count: (previous?.count ?? 0) + 1, lastFailure: lastFailure?.message ?? null };
}
