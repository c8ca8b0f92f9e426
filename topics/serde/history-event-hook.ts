import type { RecordHook } from './tagged-union-converter.js';

/**
 * Keeps HistoryEvent's analyst field `eventType` in step with `attributes.type`: written from
 * it, checked against it on read and then dropped, so TypeScript has one source of truth.
 */
export const historyEventHook: RecordHook = {
  toAvro(value, converted) {
    converted['eventType'] = (value['attributes'] as { type?: unknown } | null | undefined)?.type;
    return converted;
  },
  fromAvro(value) {
    const { eventType, ...rest } = value;
    const type = (rest['attributes'] as { type: string }).type;
    if (eventType !== type) {
      throw new Error(`eventType ${JSON.stringify(eventType)} does not match attributes of ${type}`);
    }
    return rest;
  },
};
