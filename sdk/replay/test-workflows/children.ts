/**
 * Parents used by the replay tests of child workflows (bundled on their own).
 * @module
 */
import {
  CancellationScope,
  CancelledFailure,
  ChildWorkflowFailure,
  executeChild,
  startChild,
  TerminatedFailure,
  WorkflowExecutionAlreadyStartedError,
  type ChildWorkflowCancellationType,
} from '../../workflow/index.js';

/** Starts child `kid`, cancels its scope with `cancellationType` and says how the child's result ended. */
export async function cancelsChild(cancellationType: ChildWorkflowCancellationType): Promise<string> {
  try {
    await CancellationScope.cancellable(async () => {
      const child = await startChild('waiter', { workflowId: 'kid', cancellationType });
      CancellationScope.current().cancel();
      return child.result();
    });
    return 'not cancelled';
  } catch (err) {
    return err instanceof ChildWorkflowFailure && err.cause instanceof CancelledFailure ? 'cancelled' : `other: ${String(err)}`;
  }
}

/** Runs child `kid` and returns its result, or how it failed to start or ended. */
export async function runsChild(): Promise<string> {
  try {
    return `result: ${await executeChild<() => Promise<string>>('waiter', { workflowId: 'kid' })}`;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return `already started: ${err.workflowId}`;
    if (err instanceof ChildWorkflowFailure && err.cause instanceof TerminatedFailure) return `terminated: ${err.execution.runId}`;
    return `other: ${String(err)}`;
  }
}
