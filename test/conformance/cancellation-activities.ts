/**
 * In-process implementations of the cancellation test activities, with gates the tests open and
 * observe: when an activity started, whether (and why) its AbortSignal fired, when it may finish.
 * @module
 */
import { ApplicationFailure } from '../../sdk/workflow/errors.js';
import { Context } from '../../sdk/worker/activity-context.js';
import type { CancellationActivities } from '../workflows/cancellation.js';

/** A promise with its resolver. */
interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the test sees of one activity (by key). */
export interface ActivityGate {
  readonly started: Deferred<void>;
  /** Resolves with the AbortSignal's reason when it fires. */
  readonly aborted: Deferred<unknown>;
  /** Lets the activity finish (with a result, or with its cancellation if it was cancelled). */
  readonly release: Deferred<void>;
  abortFired: boolean;
  calls: number;
}

/** The gates of every key, and the activities that use them. */
export class CancellationActivityBench {
  readonly gates = new Map<string, ActivityGate>();
  readonly cleanedUp: string[] = [];
  /** Heartbeat details each attempt of `countWithHeartbeats` started from, by key. */
  readonly resumedFrom = new Map<string, unknown[]>();

  gate(key: string): ActivityGate {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = { started: deferred(), aborted: deferred(), release: deferred(), abortFired: false, calls: 0 };
      this.gates.set(key, gate);
    }
    return gate;
  }

  /**
   * The activities. `blockUntilCancelled` keys starting with `hold` keep running after their
   * cancellation until released, to observe whether the workflow waits for them.
   */
  readonly activities: CancellationActivities = {
    blockUntilCancelled: async (key) => {
      const context = Context.current();
      const gate = this.gate(key);
      gate.calls++;
      context.cancellationSignal.addEventListener('abort', () => {
        gate.abortFired = true;
        gate.aborted.resolve(context.cancellationSignal.reason);
      }, { once: true });
      gate.started.resolve();
      try {
        await Promise.race([gate.release.promise, context.cancelled]);
      } catch (cancellation) {
        if (key.startsWith('hold')) await gate.release.promise;
        throw cancellation;
      }
      return 'finished';
    },
    cleanup: async (key) => {
      this.cleanedUp.push(key);
      return `cleaned ${key}`;
    },
    failNonRetryable: async (key) => {
      this.gate(key).calls++;
      throw ApplicationFailure.nonRetryable(`declined ${key}`, 'Declined');
    },
    failDeclined: async (key) => {
      this.gate(key).calls++;
      throw ApplicationFailure.retryable(`declined ${key}`, 'Declined');
    },
    returnLarge: async (bytes) => 'x'.repeat(bytes),
    countWithHeartbeats: async (key, steps) => {
      const context = Context.current();
      const from = (context.info.heartbeatDetails as number | undefined) ?? 0;
      const resumed = this.resumedFrom.get(key) ?? [];
      resumed.push(context.info.heartbeatDetails);
      this.resumedFrom.set(key, resumed);
      const ran: number[] = [];
      for (let step = from + 1; step <= steps; step++) {
        ran.push(step);
        context.heartbeat(step);
        // The first attempt dies half-way, after recording its progress.
        if (context.info.attempt === 1 && step === Math.floor(steps / 2)) throw ApplicationFailure.retryable(`crashed after step ${step}`, 'Crash');
      }
      return ran;
    },
  };
}
