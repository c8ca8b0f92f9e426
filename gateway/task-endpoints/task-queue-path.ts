import type { Request } from 'express';
import { assertValid, firstProblem, namespaceProblem, taskQueueProblem } from '../../topics/validation/index.js';

/** The path of a task queue's endpoints. */
export const QUEUE = '/api/v1/namespaces/:namespace/task-queues/:taskQueue';

/** How long past its own wait a poll may wait for its queue's bridge to join the worker group. */
const BRIDGE_SETUP_GRACE_MS = 3_000;

/** The namespace and task queue of the path: both become parts of topic names, so both are checked by that rule. */
export function queueOf(req: Request): { namespace: string; taskQueue: string } {
  const { namespace, taskQueue } = req.params;
  assertValid(firstProblem(() => namespaceProblem(namespace), () => taskQueueProblem(taskQueue)));
  return { namespace: namespace as string, taskQueue: taskQueue as string };
}

/**
 * The bridge, or undefined when it is not ready by the poll's deadline plus a short grace (its
 * worker group still joining while a broker fails over): the poll then answers 204 like any poll
 * that found no task, and the bridge keeps joining for the next one.
 */
export async function withinWait<B>(bridge: Promise<B>, deadline: number): Promise<B | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()) + BRIDGE_SETUP_GRACE_MS)));
  try {
    return await Promise.race([bridge, late]);
  } finally {
    clearTimeout(timer);
  }
}
