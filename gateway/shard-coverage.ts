/**
 * Reads that span every shard (list, count, the runs lacking a patch) and must say so when they
 * cannot. Each node scans the shards it serves and reports which ones it covered; the node asked
 * gathers the answers of the other members and checks that together they cover all N shards. A
 * shard that is restoring, failing over, has no owner, or whose owner cannot be reached makes
 * the read a 503 `SHARD_UNAVAILABLE` (with `Retry-After`) naming the missing shards: a count that
 * silently skipped them once answered 333 instead of 432 during a failover.
 * @module
 */
import type { GroupMember } from '../topics/log/log.js';
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import { visibilityRowCodec } from '../topics/serde/index.js';
import { Keyspace } from '../processors/shard-runtime/store-layout.js';
import { isStoreClosedError } from '../state-stores/kv-store.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';
import type { PeerCalls } from './auth/peer-calls.js';

/** How long the node asked waits for another member's answer before counting its shards as missing. */
export const PEER_TIMEOUT_MS = 10_000;

/** The matching rows of the shards one node serves, and which shards those are. */
export interface LocalScan {
  readonly shards: number[];
  readonly rows: VisibilityRow[];
}

/** A member's part of an answer, with the shards it covers. */
export type Covered<T> = T & { shards: number[] };

/**
 * The visibility rows `accept` keeps, on every shard this node owns and has restored. A shard
 * still restoring, or whose store closes during the scan, is left out of `shards`: its rows are
 * unavailable, not absent.
 */
export async function scanLocalVisibility(engine: Engine, accept: (row: VisibilityRow) => boolean = () => true): Promise<LocalScan> {
  const shards: number[] = [];
  const rows: VisibilityRow[] = [];
  for (const shard of engine.node.ownedShards()) {
    const found = await scanShard(engine, shard, accept);
    if (!found) continue;
    shards.push(shard);
    rows.push(...found);
  }
  return { shards, rows };
}

async function scanShard(engine: Engine, shard: number, accept: (row: VisibilityRow) => boolean): Promise<VisibilityRow[] | undefined> {
  const store = engine.node.processor(shard)?.localStore;
  if (!store) return undefined;
  const rows: VisibilityRow[] = [];
  try {
    for await (const [, raw] of store.entries(Keyspace.visibility)) {
      const row = await engine.serde.decode(visibilityRowCodec, raw);
      if (accept(row)) rows.push(row);
    }
  } catch (error) {
    if (isStoreClosedError(error) || engine.node.processor(shard)?.localStore !== store) return undefined;
    throw error;
  }
  return rows;
}

/**
 * The `local=1` answers of every other member that owns shards, for a GET of `path` with
 * `params`. A member that cannot be reached or fails (5xx) contributes no shards, so the coverage
 * check names its shards; a 4xx from a member is the request's fault and is passed on.
 * @throws HttpError with a member's 4xx status and message
 */
export async function askPeers<T extends object>(engine: Engine, path: string, params: URLSearchParams): Promise<Array<Covered<T>>> {
  const mine = new Set(engine.node.ownedShards());
  // A member is another node when it owns shards and none of them is ours (ownership is exclusive).
  const peers = (await engine.node.members()).filter((m) => m.partitions.length > 0 && !m.partitions.some((p) => mine.has(p)));
  params.set('local', '1');
  const answers: Array<Covered<T> | undefined> = await Promise.all(peers.map((peer) => askPeer<T>(engine.peers, peer, path, params)));
  return answers.filter((a): a is Covered<T> => a !== undefined);
}

async function askPeer<T extends object>(calls: PeerCalls, peer: GroupMember, path: string, params: URLSearchParams): Promise<Covered<T> | undefined> {
  let response: Response;
  try {
    const url = `${peer.endpoint}${path}?${params.toString()}`;
    response = await fetch(url, { headers: calls.headers('GET', url), signal: AbortSignal.timeout(PEER_TIMEOUT_MS) });
  } catch {
    return undefined;
  }
  const body = (await response.json().catch(() => ({}))) as T & { code?: string; message?: string; shards?: unknown };
  if (response.status >= 500) return undefined;
  if (!response.ok) throw new HttpError(response.status, body.code ?? 'INTERNAL', `${peer.endpoint}: ${body.message ?? response.statusText}`);
  // A node of an older version does not report its shards: it served those it was assigned.
  const shards = Array.isArray(body.shards) ? body.shards.filter((s): s is number => Number.isInteger(s)) : [...peer.partitions];
  return { ...body, shards };
}

/**
 * Throws unless the answers together cover every shard.
 * @throws HttpError 503 `SHARD_UNAVAILABLE` (Retry-After: 1) naming the shards no answer covered
 */
export function requireEveryShard(engine: Engine, covered: Iterable<number>): void {
  const seen = new Set(covered);
  const missing: number[] = [];
  for (let shard = 0; shard < engine.catalog.shards; shard++) if (!seen.has(shard)) missing.push(shard);
  if (missing.length === 0) return;
  const which = missing.length === 1 ? `shard ${missing[0]}` : `shards ${missing.join(', ')}`;
  throw new HttpError(503, 'SHARD_UNAVAILABLE', `cannot read ${which} of ${engine.catalog.shards} right now (restoring, failing over or without an owner), so the answer would be incomplete; retry shortly`, 1);
}
