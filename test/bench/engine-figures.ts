import type { BenchHistoryEvent } from './engine-probes.js';

/**
 * Step latencies of one history: for each activity, from its ActivityTaskScheduled to the claim
 * (WorkflowTaskStarted, stamped when a worker takes the task) of the first workflow task after its
 * ActivityTaskCompleted — the moment the result reaches the workflow code. Engine clock on both ends.
 */
export function stepLatencies(events: readonly BenchHistoryEvent[]): number[] {
  const latencies: number[] = [];
  let scheduledAt: number | undefined;
  let completed = false;
  for (const event of events) {
    const type = event.attributes.type;
    if (type === 'ActivityTaskScheduled') {
      scheduledAt = event.eventTime;
      completed = false;
    } else if (type === 'ActivityTaskCompleted') {
      completed = true;
    } else if (type === 'WorkflowTaskStarted' && completed && scheduledAt !== undefined) {
      latencies.push(event.eventTime - scheduledAt);
      scheduledAt = undefined;
      completed = false;
    }
  }
  return latencies;
}

/** The sum of every series of a metric in Prometheus text (0 when absent). */
export function metricTotal(text: string, name: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Shard transactions and the inputs they carried, from the engine's metrics. */
export interface TransactionCount {
  readonly transactions: number;
  readonly inputs: number;
}

/** Reads the transaction counters of `logbook_processor_*`. */
export function transactionCount(metricsText: string): TransactionCount {
  return {
    transactions: metricTotal(metricsText, 'logbook_processor_transaction_seconds_count'),
    inputs: metricTotal(metricsText, 'logbook_processor_batch_inputs_sum'),
  };
}
