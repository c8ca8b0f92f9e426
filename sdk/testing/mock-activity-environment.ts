/**
 * `MockActivityEnvironment` of `logbook/testing`, as Temporal's: runs an activity function outside
 * a worker with a context of its own, so a unit test can read its heartbeats and cancel it.
 * @module
 */
import { EventEmitter } from 'node:events';
import { runtimeLogger, withAttributes, type Logger } from '../common/logger.js';
import { cancellationHelpers, runInActivityContext, type ActivityContext, type ActivityInfo } from '../worker/activity-context.js';
import { CancelledFailure } from '../workflow/errors.js';

/** The info a mock activity has unless the test gives its own (Temporal's `defaultActivityInfo`, in Logbook's fields). */
export const defaultActivityInfo: ActivityInfo = {
  namespace: 'default',
  workflowId: 'test',
  runId: 'test-run',
  workflowType: 'test',
  activityId: 'test',
  activityType: 'unknown',
  taskQueue: 'test',
  attempt: 1,
  idempotencyKey: 'test:test',
  heartbeatDetails: undefined,
  workflowExecution: { workflowId: 'test', runId: 'test-run' },
  workflowNamespace: 'default',
  activityNamespace: 'default',
  isLocal: false,
  startToCloseTimeoutMs: 10_000,
  scheduleToCloseTimeoutMs: undefined,
  heartbeatTimeoutMs: undefined,
  scheduledTimestampMs: 1,
  currentAttemptScheduledTimestampMs: 1,
  startedTimestampMs: 1,
  taskToken: new Uint8Array(),
  base64TaskToken: '',
};

/**
 * An activity context for one test: `run(fn, …args)` runs the activity inside it; each
 * `heartbeat(details)` is emitted as a `heartbeat` event; `cancel()` cancels it as a worker would.
 *
 * @example
 * const env = new MockActivityEnvironment({ attempt: 2 });
 * env.on('heartbeat', (details) => seen.push(details));
 * assert.equal(await env.run(ship, 'p-1'), 'shipped');
 */
export class MockActivityEnvironment extends EventEmitter {
  readonly context: ActivityContext;
  private readonly abort = new AbortController();

  constructor(info: Partial<ActivityInfo> = {}, options: { logger?: Logger } = {}) {
    super();
    const full: ActivityInfo = { ...defaultActivityInfo, ...info };
    const logger = options.logger ?? runtimeLogger();
    this.context = {
      info: full,
      log: withAttributes(() => logger, () => ({ sdkComponent: 'activity', activityType: full.activityType, attempt: full.attempt })),
      cancellationSignal: this.abort.signal,
      ...cancellationHelpers(this.abort.signal),
      heartbeat: (details) => void this.emit('heartbeat', details),
    };
  }

  /** Runs `fn` as the activity of this environment. */
  run<P extends unknown[], R>(fn: (...args: P) => Promise<R>, ...args: P): Promise<R> {
    return runInActivityContext(this.context, () => fn(...args));
  }

  /** Cancels the activity: its `cancellationSignal` aborts with a `CancelledFailure`. */
  cancel(reason = 'CANCELLED'): void {
    this.abort.abort(new CancelledFailure(reason));
  }
}
