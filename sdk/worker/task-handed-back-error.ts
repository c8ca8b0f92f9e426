import { LogbookError } from '../../topics/errors.js';

/**
 * A task handler could not answer its task: the engine has heard nothing of it yet (its claim and
 * result were not written) and the partition was taken away or the worker is stopping. The task
 * consumer then leaves the task unfinished — its position is never committed past it — so it
 * comes back to the partition's next owner instead of being lost.
 */
export class TaskHandedBackError extends LogbookError {
  constructor(message: string, cause?: unknown) {
    super('TASK_HANDED_BACK', message, { cause });
  }
}
