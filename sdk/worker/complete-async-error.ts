/**
 * Thrown by an activity that will be completed later by someone else (Temporal's
 * `CompleteAsyncError`): the worker claims the attempt and reports nothing; whoever holds the
 * attempt's `taskToken` (from `activityInfo()`) completes, fails or heartbeats it through
 * `client.activity`. The activity's timeouts still apply.
 */
export class CompleteAsyncError extends Error {
  constructor() {
    super('the activity will be completed asynchronously');
    this.name = 'CompleteAsyncError';
  }
}
