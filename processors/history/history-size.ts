/**
 * The running size of a run's history, kept in `executionInfo.historySizeBytes`: each appended
 * event adds an estimate of its encoded size, so the limits need no encoding and no re-reading.
 *
 * The estimate walks the event's plain data the way Avro lays it out: bytes and strings count their
 * length plus a length prefix, numbers and booleans a few bytes, field names nothing (records do not
 * encode them). Payload bytes dominate real histories and are counted exactly; Temporal's limits are
 * orders of magnitude above the envelope's small differences.
 * @module
 */
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';

/** Estimated encoded size of plain data (see the module comment). */
function estimatedSize(value: unknown): number {
  if (value === null || value === undefined) return 1;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 5;
    case 'boolean':
      return 1;
    case 'object':
      break;
    default:
      return 1;
  }
  if (value instanceof Uint8Array) return value.length + 2;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value) size += estimatedSize(item);
    return size;
  }
  for (const item of Object.values(value)) size += estimatedSize(item);
  return size;
}

/** Estimated encoded size of one history event, envelope included. */
export function estimatedEventBytes(event: HistoryEvent): number {
  return estimatedSize(event);
}
