import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataConverter } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { toJsonView } from '../../gateway/json-views.js';

/**
 * What the benchmarks read from the engine under test besides its replies: its history (for
 * timestamps the engine recorded), the size of its state stores on disk, and its memory.
 */

/** A history event in the gateway's JSON view (payloads decoded), the same on both backends. */
export interface BenchHistoryEvent {
  readonly eventId: number;
  readonly eventTime: number;
  readonly attributes: { readonly type: string } & Readonly<Record<string, unknown>>;
}

/** Reads the events of one run of the `default` namespace. */
export type HistoryReader = (workflowId: string, runId: string) => Promise<BenchHistoryEvent[]>;

/** A history reader over the gateway's HTTP API (the engine in a process of its own). */
export function httpHistoryReader(endpoint: string): HistoryReader {
  return async (workflowId, runId) => {
    const url = `${endpoint}/api/v1/namespaces/default/workflows/${encodeURIComponent(workflowId)}/history?runId=${encodeURIComponent(runId)}`;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`history of ${workflowId}: HTTP ${response.status} ${await response.text()}`);
    return ((await response.json()) as { events: BenchHistoryEvent[] }).events;
  };
}

/** A history reader over an in-process engine, in the same JSON view as the HTTP API gives. */
export function localHistoryReader(read: (workflowId: string, runId: string) => Promise<HistoryEvent[]>, converter: DataConverter): HistoryReader {
  return async (workflowId, runId) => toJsonView(await read(workflowId, runId), converter) as BenchHistoryEvent[];
}

/** Sum of the sizes of every file below `directory`, in bytes (files that vanish meanwhile — compaction — count as 0). */
export async function directoryBytes(directory: string): Promise<number> {
  let total = 0;
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(path);
    else if (entry.isFile()) total += (await stat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * {@link directoryBytes} once it has settled (two readings 2 s apart within 1 %, or after 30 s):
 * LevelDB compacts earlier writes in the background, which would otherwise count against what
 * comes next.
 */
export async function settledDirectoryBytes(directory: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  let last = await directoryBytes(directory);
  for (;;) {
    await new Promise((r) => setTimeout(r, 2_000));
    const now = await directoryBytes(directory);
    if (Math.abs(now - last) <= last * 0.01 || Date.now() > deadline) return now;
    last = now;
  }
}

/** Resident memory of a process from /proc/<pid>/status: current (VmRSS) and peak (VmHWM), in bytes. */
export interface ProcessMemory {
  readonly rssBytes: number;
  readonly peakRssBytes: number;
}

/** Reads {@link ProcessMemory} of `pid` (Linux only). */
export async function processMemory(pid: number): Promise<ProcessMemory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM') };
}

/** Runs `task` for each item with at most `limit` at once; resolves when all are done (rejects on the first failure). */
export async function forEachBounded<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
