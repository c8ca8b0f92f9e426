/**
 * Workflows whose activities run in another language: the Python worker of `examples/python`
 * serves the `python-activities` task queue over the Kafka task protocol.
 * @module
 */
import { ActivityCancellationType, CancellationScope, condition, defineSignal, isCancellation, proxyActivities, setHandler } from 'logbook/workflow';

/** A parcel to ship. */
export interface Parcel {
  readonly parcelId: string;
  readonly weightKg: number;
  readonly destination: string;
}

/** What the Python activity quotes. */
export interface Quote {
  readonly parcelId: string;
  readonly carrier: string;
  readonly priceCents: number;
  readonly quotedBy: string;
}

/** The activities of `examples/python/activity_worker.py`, as this workflow calls them. */
interface PythonActivities {
  quoteShipping(parcel: Parcel): Promise<Quote>;
  /** Heartbeats until cancelled. */
  trackParcel(parcelId: string): Promise<string>;
}

/** The task queue the Python worker serves. */
export const PYTHON_TASK_QUEUE = 'python-activities';

const { quoteShipping } = proxyActivities<PythonActivities>({
  taskQueue: PYTHON_TASK_QUEUE,
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumAttempts: 3 },
});

const { trackParcel } = proxyActivities<PythonActivities>({
  taskQueue: PYTHON_TASK_QUEUE,
  startToCloseTimeout: '10m',
  heartbeatTimeout: '10s',
  // The workflow goes on only once the worker has reported the cancellation.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});

/** Stops `trackUntilStopped`. */
export const stopTracking = defineSignal('stopTracking');

/** Asks the Python worker for a shipping quote. */
export async function quoteParcel(parcel: Parcel): Promise<Quote> {
  return quoteShipping(parcel);
}

/** Tracks a parcel in Python until the `stopTracking` signal, then cancels the tracking activity. */
export async function trackUntilStopped(parcelId: string): Promise<string> {
  let stop = false;
  setHandler(stopTracking, () => void (stop = true));
  const scope = new CancellationScope();
  const tracking = scope.run(() => trackParcel(parcelId));
  tracking.catch(() => undefined);
  await condition(() => stop);
  scope.cancel();
  try {
    return await tracking;
  } catch (error) {
    if (isCancellation(error)) return `tracking of ${parcelId} stopped`;
    throw error;
  }
}
