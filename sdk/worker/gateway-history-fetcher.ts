/**
 * The history a workflow worker pages on a cache miss, read over the gateway's HTTP API (the
 * contract's door to the shard stores), so a worker process needs no engine code.
 * @module
 */
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { HistoryFetcher } from './workflow-worker.js';
import { fromRawView } from '../../topics/wire/raw-view.js';
import { GatewayAccess } from '../common/gateway-access.js';

/** How long one gateway has to answer a history page. */
const HISTORY_FETCH_TIMEOUT_MS = 30_000;

/**
 * A history fetcher over gateways' HTTP API: with several endpoints the first that answers wins,
 * and the one that answered last is asked first, so a worker keeps replaying while a node is down.
 * Given a {@link GatewayAccess}, every page is read with its credentials.
 * @throws Error (from `fetch`) naming the run, the endpoint, the status and the gateway's answer of the last refusal
 */
export function gatewayHistoryFetcher(endpoints: string | readonly string[] | GatewayAccess): HistoryFetcher {
  const access = endpoints instanceof GatewayAccess ? endpoints : new GatewayAccess(endpoints);
  const bases = access.baseUrls;
  let preferred = 0;
  return {
    async fetch(run, untilEventId) {
      let lastError: unknown;
      for (let i = 0; i < bases.length; i++) {
        const at = (preferred + i) % bases.length;
        try {
          const events = await fetchFrom(access, bases[at]!, run, untilEventId);
          preferred = at;
          return events;
        } catch (error) {
          lastError = error;
        }
      }
      throw lastError;
    },
  };
}

async function fetchFrom(access: GatewayAccess, endpoint: string, run: Parameters<HistoryFetcher['fetch']>[0], untilEventId: number): Promise<HistoryEvent[]> {
  const url = `${endpoint}/api/v1/namespaces/${encodeURIComponent(run.namespace)}/workflows/${encodeURIComponent(run.workflowId)}/history?raw=1&runId=${encodeURIComponent(run.runId)}&untilEventId=${untilEventId}`;
  // A gateway that takes the connection and never answers (a node failing over) must not hold the
  // workflow task: past the timeout the next gateway is asked.
  const response = await access.fetch(url, { signal: AbortSignal.timeout(HISTORY_FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`history of ${run.workflowId}/${run.runId} from ${endpoint}: HTTP ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { events: unknown[] };
  return body.events.map(fromRawView) as HistoryEvent[];
}
