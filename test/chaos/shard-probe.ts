import { topicCatalog } from '../../topics/catalog.js';

/**
 * Whether a shard is served, asked through a gateway the way a caller would: describe of a workflow
 * on that shard (one that was never started, so the answer is the owner's `404 WorkflowNotFound`
 * once the owner has the shard restored, and `503` — or no answer — while it has none). Any node
 * forwards a read to the shard's owner, so one live gateway can probe every shard.
 */

/** A never-started workflow id on each shard of `shards`, in namespace `namespace`. */
export function probeIds(namespace: string, shards: number, prefix = 'chaos-probe'): string[] {
  const catalog = topicCatalog({ shards });
  const ids: Array<string | undefined> = new Array(shards).fill(undefined);
  for (let i = 0; ids.includes(undefined); i++) {
    const id = `${prefix}-${i}`;
    const shard = catalog.shardOf(namespace, id);
    ids[shard] ??= id;
  }
  return ids as string[];
}

/** True when the gateway at `endpoint` answers for `workflowId` as its shard's owner would. */
export async function shardServed(endpoint: string, namespace: string, workflowId: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/api/v1/namespaces/${namespace}/workflows/${workflowId}`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.text();
    return response.status === 200 || (response.status === 404 && body.includes('WorkflowNotFound'));
  } catch {
    return false;
  }
}

/** The shards a node says it owns on /healthz (a list of numbers, or of objects with a `shard`), or undefined when it does not answer. */
export async function ownedShards(endpoint: string, timeoutMs = 2_000): Promise<number[] | undefined> {
  try {
    const response = await fetch(`${endpoint}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.json()) as { shards?: unknown };
    if (!Array.isArray(body.shards)) return undefined;
    return body.shards.flatMap((s: unknown) => (typeof s === 'number' ? [s] : typeof (s as { shard?: unknown })?.shard === 'number' ? [(s as { shard: number }).shard] : []));
  } catch {
    return undefined;
  }
}

/** Options of {@link waitUntilServed}. */
export interface ServedWait {
  readonly shards: readonly number[];
  /** The gateways alive now (asked in turn). */
  readonly gateways: () => readonly string[];
  readonly namespace: string;
  readonly probeIds: readonly string[];
  readonly timeoutMs: number;
  readonly everyMs?: number;
}

/** One change in what the probes saw: which of the shards answered as served, through which gateway. */
export interface ProbeChange {
  readonly at: number;
  readonly gateway: string;
  readonly served: readonly number[];
}

/** What {@link waitUntilServed} saw. */
export interface ServedResult {
  /** When the first round in which every shard answered as served began (epoch ms); null when it never came. */
  readonly at: number | null;
  /** When each shard was first seen served. */
  readonly firstServed: Record<number, number>;
  /** Every round whose served set differed from the round before. */
  readonly timeline: readonly ProbeChange[];
}

/**
 * Probes until every shard in `shards` answered as served within one round (each probe given 2 s),
 * or the time-out.
 */
export async function waitUntilServed(options: ServedWait): Promise<ServedResult> {
  const deadline = Date.now() + options.timeoutMs;
  const firstServed: Record<number, number> = {};
  const timeline: ProbeChange[] = [];
  let round = 0;
  while (Date.now() < deadline) {
    const began = Date.now();
    const gateways = options.gateways();
    if (gateways.length > 0) {
      const gateway = gateways[round++ % gateways.length]!;
      const answers = await Promise.all(options.shards.map((s) => shardServed(gateway, options.namespace, options.probeIds[s]!)));
      const served = options.shards.filter((_, i) => answers[i]);
      for (const s of served) firstServed[s] ??= began;
      if (timeline.at(-1)?.served.join() !== served.join()) timeline.push({ at: began, gateway, served });
      if (served.length === options.shards.length) return { at: began, firstServed, timeline };
    }
    await new Promise((r) => setTimeout(r, Math.max(0, (options.everyMs ?? 250) - (Date.now() - began))));
  }
  return { at: null, firstServed, timeline };
}
