/**
 * Namespace v1 — the value of the compacted `logbook.namespaces` topic (key: the namespace name):
 * one namespace's registration and settings. The latest record of a name is the namespace; every
 * engine node, gateway and worker reads the topic live, so a change applies everywhere within a
 * poll interval. Written by the gateway's register and update calls.
 * @module
 */
import { enumOf, field, mapOf, optional, record, symbolsObject, timestampMillis } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';

const namespaceStateSymbols = ['Registered', 'Deprecated'] as const;
/** `Deprecated`: existing runs go on, new starts are refused (Temporal's deprecated namespace). */
export const NamespaceState = symbolsObject(namespaceStateSymbols);
/** @see NamespaceState */
export type NamespaceState = (typeof namespaceStateSymbols)[number];

/**
 * Per-run history limits of the namespace (see `processors/history/config.ts`); null keeps the
 * engine's default.
 */
export interface NamespaceHistoryLimits {
  historyCountSuggestContinueAsNew: number | null;
  historySizeSuggestContinueAsNewBytes: number | null;
  historyCountWarn: number | null;
  historySizeWarnBytes: number | null;
  historyCountLimit: number | null;
  historySizeLimitBytes: number | null;
  maxPendingActivities: number | null;
  maxSignalsPerRun: number | null;
}

/** One namespace. */
export interface Namespace {
  name: string;
  description: string;
  ownerEmail: string;
  state: NamespaceState;
  /** How long a closed run is kept before its state, visibility row and history are deleted. */
  retentionMs: number;
  historyLimits: NamespaceHistoryLimits;
  /** Workflow starts (start, signal-with-start) accepted per second per gateway node; null: unlimited. */
  startsPerSecond: number | null;
  /** API calls of the namespace accepted per second per gateway node; null: unlimited. */
  apiCallsPerSecond: number | null;
  /** Activity dispatch rate of a task queue, shared by all its workers (Temporal's `maxTaskQueueActivitiesPerSecond`). */
  taskQueueActivitiesPerSecond: Record<string, number>;
  registerTime: number;
  updateTime: number;
}

/** The names of the history limits a namespace may set, in schema order. */
export const namespaceHistoryLimitNames = [
  'historyCountSuggestContinueAsNew',
  'historySizeSuggestContinueAsNewBytes',
  'historyCountWarn',
  'historySizeWarnBytes',
  'historyCountLimit',
  'historySizeLimitBytes',
  'maxPendingActivities',
  'maxSignalsPerRun',
] as const satisfies readonly (keyof NamespaceHistoryLimits)[];

/** Avro schema of `logbook.Namespace`, version 1. Frozen. */
export const namespaceSchemaV1 = defineSchema(
  record(
    'logbook.Namespace',
    [
      field('name', 'string'),
      field('description', 'string'),
      field('ownerEmail', 'string'),
      field('state', enumOf('logbook.NamespaceState', namespaceStateSymbols)),
      field('retentionMs', 'long'),
      field('historyLimits', record('logbook.NamespaceHistoryLimits', namespaceHistoryLimitNames.map((name) => optional(name, 'long')))),
      optional('startsPerSecond', 'double'),
      optional('apiCallsPerSecond', 'double'),
      field('taskQueueActivitiesPerSecond', mapOf('double')),
      field('registerTime', timestampMillis),
      field('updateTime', timestampMillis),
    ],
    'A namespace: its description, retention, limits and rates; the latest record of a name wins.',
  ),
);
