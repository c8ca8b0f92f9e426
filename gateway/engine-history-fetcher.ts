import type { Engine } from './engine.js';
import { ShardUnavailableError } from './engine.js';
import { gatewayHistoryFetcher } from '../sdk/worker/gateway-history-fetcher.js';
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
        return gatewayHistoryFetcher(engine.peers.access(error.ownerEndpoint)).fetch(run, untilEventId);
      }
    },
  };
}
