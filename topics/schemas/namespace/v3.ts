/**
 * Namespace v3 — the namespace's payload guards (issue 15): the task queues whose payloads must be
 * encrypted by the payload codec, and the search attribute names the namespace refuses (search
 * attributes are stored in plain text). Two top-level fields appended with default `[]`, so v1 and
 * v2 records decode with the v3 reader with no guard set.
 * @module
 */
import { arrayOf, record, withDefault } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';
import { namespaceSchemaV2, type Namespace as NamespaceV2 } from './v2.js';

export { NamespaceState, namespaceHistoryLimitNames, type NamespaceHistoryLimits } from './v2.js';

/** The task-queue name that stands for every task queue of the namespace in {@link Namespace.codecRequiredTaskQueues}. */
export const EVERY_TASK_QUEUE = '*';

/** One namespace (as of v3). */
export interface Namespace extends NamespaceV2 {
  /**
   * Task queues whose payloads must be encrypted (`binary/encrypted`, see
   * `topics/payload/encrypted-payload.ts`); the engine refuses plaintext ones. Exact names, or
   * {@link EVERY_TASK_QUEUE}. `[]` before v3.
   */
  codecRequiredTaskQueues: string[];
  /** Search attribute names the namespace refuses in starts and upserts (exact names). `[]` before v3. */
  refusedSearchAttributes: string[];
}

/** Avro schema of `logbook.Namespace`, version 3. Frozen. */
export const namespaceSchemaV3 = defineSchema(
  record(
    'logbook.Namespace',
    [
      ...namespaceSchemaV2.fields,
      withDefault('codecRequiredTaskQueues', arrayOf('string'), []),
      withDefault('refusedSearchAttributes', arrayOf('string'), []),
    ],
    'A namespace: its description, retention, limits, rates and payload guards; the latest record of a name wins.',
  ),
);
