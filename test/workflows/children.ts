/**
 * Parents and children for the child-workflow conformance tests.
 * @module
 */
import {
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  ChildWorkflowFailure,
  condition,
  continueAsNew,
  defineSignal,
  executeChild,
  setHandler,
  startChild,
  TimeoutFailure,
  WorkflowExecutionAlreadyStartedError,
  workflowInfo,
  type ParentClosePolicy,
} from '../../sdk/workflow/index.js';

/** Lets a {@link waitForRelease} child finish. */
export const release = defineSignal('release');

/** A child: doubles its input. */
export async function doubler(value: number): Promise<number> {
  return value * 2;
}

/** A child that fails for good. */
export async function rejecter(): Promise<never> {
  throw ApplicationFailure.nonRetryable('invoice rejected', 'InvoiceRejected');
}

/** A child that waits for `release` and returns 'released'; a cancellation request ends it Canceled. */
export async function waitForRelease(): Promise<string> {
  let released = false;
  setHandler(release, () => void (released = true));
  await condition(() => released);
  return 'released';
}

/** A child that continues as new `runs` times, then names its last run's parent. */
export async function chained(runs: number): Promise<string> {
  if (runs > 0) return continueAsNew<typeof chained>(runs - 1);
  return `last run, child of ${workflowInfo().parent?.workflowId}`;
}

/** Runs {@link doubler} as a child and returns its result. */
export async function parentOfDoubler(childId: string, value: number): Promise<number> {
  return executeChild(doubler, { workflowId: childId, args: [value] });
}

/** Runs {@link chained} as a child: the result is the last run's. */
export async function parentOfChained(childId: string): Promise<string> {
  return executeChild(chained, { workflowId: childId, args: [2] });
}

/** Starts a {@link waitForRelease} child, releases it through the handle's `signal` and returns its result. */
export async function parentSignalsChild(childId: string): Promise<string> {
  const child = await startChild(waitForRelease, { workflowId: childId });
  await child.signal(release);
  return `${child.firstExecutionRunId === '' ? 'no run id' : 'run id known'}, ${await child.result()}`;
}

/** Starts a {@link waitForRelease} child and waits for its result. */
export async function parentWaitsForChild(childId: string): Promise<string> {
  return executeChild(waitForRelease, { workflowId: childId });
}

/** Runs {@link rejecter} and describes the failure it gets: `ChildWorkflowFailure <- InvoiceRejected: invoice rejected`. */
export async function parentOfRejecter(childId: string): Promise<string> {
  try {
    await executeChild(rejecter, { workflowId: childId });
    return 'no failure';
  } catch (err) {
    if (!(err instanceof ChildWorkflowFailure) || !(err.cause instanceof ApplicationFailure)) return `unexpected: ${String(err)}`;
    return `ChildWorkflowFailure <- ${err.cause.type}: ${err.cause.message}`;
  }
}

/** Runs a {@link waitForRelease} child with a 1 s run timeout nobody releases; returns what the parent saw. */
export async function parentOfSlowChild(childId: string): Promise<string> {
  try {
    return await executeChild(waitForRelease, { workflowId: childId, workflowRunTimeout: '1s' });
  } catch (err) {
    return err instanceof ChildWorkflowFailure && err.cause instanceof TimeoutFailure ? 'child timed out' : `unexpected: ${String(err)}`;
  }
}

/** Starts a child under a workflow id that is already running; returns what startChild threw. */
export async function parentOfTakenId(childId: string): Promise<string> {
  try {
    await startChild(waitForRelease, { workflowId: childId });
    return 'started';
  } catch (err) {
    return err instanceof WorkflowExecutionAlreadyStartedError ? `already started: ${err.workflowId}` : `unexpected: ${String(err)}`;
  }
}

/** Starts a child, cancels the scope it lives in and returns how the child's result ended. */
export async function parentCancelsChild(childId: string): Promise<string> {
  try {
    await CancellationScope.cancellable(async () => {
      const child = await startChild(waitForRelease, { workflowId: childId });
      CancellationScope.current().cancel();
      return child.result();
    });
    return 'not cancelled';
  } catch (err) {
    if (!(err instanceof ChildWorkflowFailure)) return `unexpected: ${String(err)}`;
    return err.cause instanceof CancelledFailure ? 'child cancelled' : `child ended otherwise: ${String(err.cause)}`;
  }
}

/** Starts a {@link waitForRelease} child with the given parent close policy and completes at once. */
export async function parentThatLeaves(childId: string, parentClosePolicy: ParentClosePolicy): Promise<string> {
  await startChild(waitForRelease, { workflowId: childId, parentClosePolicy });
  return 'left';
}

/** Starts `count` children at once (to pass the pending-children limit). */
export async function parentOfMany(prefix: string, count: number): Promise<number> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  await Promise.all(ids.map((workflowId) => startChild(waitForRelease, { workflowId, parentClosePolicy: 'ABANDON' })));
  return count;
}
