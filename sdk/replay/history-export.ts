/**
 * Reads an exported history back into `HistoryEvent`s: the gateway's lossless export
 * (`GET …/workflows/{id}/history?raw=1`, `{ events }` with bytes as `{ $b64 }`), the events as
 * `JSON.stringify` writes them (bytes as `{ type: 'Buffer', data }`), or events read back already,
 * as an object or a bare array.
 * @module
 */
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { HistoryShapeError } from './errors.js';

/**
 * The events of an exported history (parsed JSON), with their bytes restored.
 * @throws HistoryShapeError when the value holds no list of events (e.g. the decoded, non-raw
 *   view of the history endpoint, whose payloads cannot be restored: export with `raw=1`)
 * @example
 * const events = historyFromExport(JSON.parse(await readFile('order-42.json', 'utf8')));
 */
export function historyFromExport(exported: unknown): HistoryEvent[] {
  const events = Array.isArray(exported) ? exported : (exported as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new HistoryShapeError('an exported history is a list of events or an object with `events` (GET …/history?raw=1)');
  const restored = events.map(restoreBytes) as HistoryEvent[];
  for (const [index, event] of restored.entries()) {
    if (typeof event?.eventId !== 'number' || typeof event.attributes?.type !== 'string') {
      throw new HistoryShapeError(`exported event ${index} is not a history event (it needs eventId and attributes.type)`);
    }
  }
  const started = restored[0];
  if (started?.attributes.type === 'WorkflowExecutionStarted' && !started.attributes.input.every((p) => Buffer.isBuffer(p.data))) {
    throw new HistoryShapeError('the history\'s payloads are decoded values, not bytes: export it with raw=1');
  }
  return restored;
}

function restoreBytes(value: unknown): unknown {
  // Events read back already (bytes restored) pass as they are.
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return value.map(restoreBytes);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === '$b64' && typeof entries[0]![1] === 'string') return Buffer.from(entries[0]![1], 'base64');
  const record = value as { type?: unknown; data?: unknown };
  if (entries.length === 2 && record.type === 'Buffer' && Array.isArray(record.data)) return Buffer.from(record.data as number[]);
  return Object.fromEntries(entries.map(([k, v]) => [k, restoreBytes(v)]));
}
