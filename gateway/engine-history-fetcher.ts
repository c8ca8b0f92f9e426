import type { Engine } from './engine.js';
import { ShardUnavailableError } from './engine.js';
import type { HistoryEvent } from '../topics/schemas/history-event/index.js';
import type { HistoryFetcher } from '../sdk/worker/workflow-worker.js';

/**
 * The history fetcher of a worker running inside an engine node: reads the local shard store when
 * this node owns the shard, otherwise asks the owner's gateway.
 */
export function engineHistoryFetcher(engine: Engine): HistoryFetcher {
  return {
    async fetch(run, untilEventId) {
      try {
        return await engine.history(run.namespace, run.workflowId, run.runId, { untilEventId });
      } catch (error) {
        if (!(error instanceof ShardUnavailableError) || !error.ownerEndpoint) throw error;
        return gatewayHistoryFetcher(error.ownerEndpoint).fetch(run, untilEventId);
      }
    },
  };
}

/** A history fetcher over a gateway's HTTP API (for workers in their own processes). */
export function gatewayHistoryFetcher(endpoint: string): HistoryFetcher {
  return {
    async fetch(run, untilEventId) {
      const url = `${endpoint}/api/v1/namespaces/${encodeURIComponent(run.namespace)}/workflows/${encodeURIComponent(run.workflowId)}/history?raw=1&runId=${encodeURIComponent(run.runId)}&untilEventId=${untilEventId}`;
      const response = await fetch(url);
      if (!response.ok) throw new Error(`history of ${run.workflowId}/${run.runId} from ${endpoint}: HTTP ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { events: unknown[] };
      return body.events.map(fromRawView) as HistoryEvent[];
    },
  };
}

/** Inverse of `rawView`: `{ $b64 }` back to Buffers. */
function fromRawView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromRawView);
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.$b64 === 'string' && Object.keys(o).length === 1) return Buffer.from(o.$b64, 'base64');
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fromRawView(v)]));
  }
  return value;
}
