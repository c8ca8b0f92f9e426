/**
 * QueryTask v1 — the value of `logbook.tasks.query.<ns>.<queue>` (key `ns/workflowId`): a query
 * to answer from a run's state. It never passes through the history shard and nothing is written
 * to history; a workflow worker answers it on `logbook.replies` with a `QueryAnswer` reply keyed
 * by `replyTo.requestId`.
 *
 * `lastEventId` and `workflowTaskScheduledEventId` come from the run's mutable state when the
 * query was sent, so the answer reflects every event committed before it (read-your-writes: a
 * query after a signal sees the signal's effect even if no worker has run that task yet).
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, record, timestampMillis } from '../avro-schema.js';
import { headerSchema, payloadsSchema, replyToSchema, type Header, type ReplyTo } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';

/** A query of one run. */
export interface QueryTask {
  namespace: string;
  workflowId: string;
  runId: string;
  /** The query handler's name. */
  queryType: string;
  args: Payload[];
  header: Header;
  /** Where the answer goes: the replies topic, keyed by `requestId`. */
  replyTo: ReplyTo;
  /** The asker gives up at this time; a worker skips a query read later. */
  deadlineTime: number;
  /** The answer reflects at least the run's history up to this event. */
  lastEventId: number;
  /**
   * The latest workflow task the answer must include (its events applied and its code run): the
   * pending one if any, else the last completed one; 0 when the run has none. A worker answers
   * from its cached run only if that run has processed this task, and replays history otherwise.
   */
  workflowTaskScheduledEventId: number;
}

/** Avro schema of `logbook.QueryTask`, version 1. Frozen. */
export const queryTaskSchemaV1 = defineSchema(
  record('logbook.QueryTask', [
    field('namespace', 'string'),
    field('workflowId', 'string'),
    field('runId', 'string'),
    field('queryType', 'string'),
    field('args', payloadsSchema),
    field('header', headerSchema),
    field('replyTo', replyToSchema),
    field('deadlineTime', timestampMillis),
    field('lastEventId', 'long'),
    field('workflowTaskScheduledEventId', 'long'),
  ]),
);
