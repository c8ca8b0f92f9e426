/**
 * Namespace v2 — the per-run limits added after v1 (the workflow-task rate, the payload limit,
 * pending children and updates) become settable per namespace. Only the nested
 * `logbook.NamespaceHistoryLimits` record grows, each new field optional with default null, so a
 * v1 record decodes with the v2 reader (the new limits unset: the engine's defaults).
 * @module
 */
import { field, optional, record } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';
import { namespaceHistoryLimitNames as namespaceHistoryLimitNamesV1, namespaceSchemaV1, type Namespace as NamespaceV1, type NamespaceHistoryLimits as NamespaceHistoryLimitsV1 } from './v1.js';

export { NamespaceState } from './v1.js';

/** Per-run limits of the namespace (see `processors/history/config.ts`); null keeps the engine's default. */
export interface NamespaceHistoryLimits extends NamespaceHistoryLimitsV1 {
  maxWorkflowTasksPerSecond: number | null;
  maxPayloadBytes: number | null;
  maxPendingChildWorkflows: number | null;
  maxInFlightUpdatesPerRun: number | null;
  maxUpdatesPerRun: number | null;
}

/** One namespace (as of v2). */
export interface Namespace extends Omit<NamespaceV1, 'historyLimits'> {
  historyLimits: NamespaceHistoryLimits;
}

/** The names of the limits a namespace may set, in schema order. */
export const namespaceHistoryLimitNames = [
  ...namespaceHistoryLimitNamesV1,
  'maxWorkflowTasksPerSecond',
  'maxPayloadBytes',
  'maxPendingChildWorkflows',
  'maxInFlightUpdatesPerRun',
  'maxUpdatesPerRun',
] as const satisfies readonly (keyof NamespaceHistoryLimits)[];

/** Avro schema of `logbook.Namespace`, version 2. Frozen. */
export const namespaceSchemaV2 = defineSchema(
  record(
    'logbook.Namespace',
    namespaceSchemaV1.fields.map((f) =>
      f.name === 'historyLimits'
        ? field('historyLimits', record('logbook.NamespaceHistoryLimits', namespaceHistoryLimitNames.map((name) => optional(name, 'long'))))
        : f,
    ),
    'A namespace: its description, retention, limits and rates; the latest record of a name wins.',
  ),
);
