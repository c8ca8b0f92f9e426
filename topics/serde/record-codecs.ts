import type { ActivityControl } from '../schemas/activity-control/index.js';
import type { ActivityTask } from '../schemas/activity-task/index.js';
import type { AuditRecord } from '../schemas/audit-record/index.js';
import type { Command } from '../schemas/command/index.js';
import type { HistoryEvent } from '../schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../schemas/mutable-state-snapshot/index.js';
import type { Namespace } from '../schemas/namespace/index.js';
import type { QueryTask } from '../schemas/query-task/index.js';
import type { Reply } from '../schemas/reply/index.js';
import { schemaCatalog, type RecordName } from '../schemas/schema-catalog.js';
import type { ShardPositions } from '../schemas/shard-positions/index.js';
import type { VisibilityRow } from '../schemas/visibility-row/index.js';
import type { WorkflowTask } from '../schemas/workflow-task/index.js';
import { historyEventHook } from './history-event-hook.js';
import { RecordCodec } from './record-codec.js';
import { TaggedUnionConverter } from './tagged-union-converter.js';

const converter = new TaggedUnionConverter(new Map([['logbook.HistoryEvent', historyEventHook]]));

/** Codec of `logbook.history` values. */
export const historyEventCodec = new RecordCodec<HistoryEvent>(schemaCatalog.HistoryEvent, converter);
/** Codec of `logbook.commands` and `logbook.commands.internal` values. */
export const commandCodec = new RecordCodec<Command>(schemaCatalog.Command, converter);
/** Codec of `logbook.state` run snapshots. */
export const mutableStateSnapshotCodec = new RecordCodec<MutableStateSnapshot>(
  schemaCatalog.MutableStateSnapshot,
  converter,
);
/** Codec of `logbook.state` shard input positions. */
export const shardPositionsCodec = new RecordCodec<ShardPositions>(schemaCatalog.ShardPositions, converter);
/** Codec of workflow task topic values. */
export const workflowTaskCodec = new RecordCodec<WorkflowTask>(schemaCatalog.WorkflowTask, converter);
/** Codec of activity task topic values. */
export const activityTaskCodec = new RecordCodec<ActivityTask>(schemaCatalog.ActivityTask, converter);
/** Codec of activity control topic values. */
export const activityControlCodec = new RecordCodec<ActivityControl>(schemaCatalog.ActivityControl, converter);
/** Codec of `logbook.visibility` values. */
export const visibilityRowCodec = new RecordCodec<VisibilityRow>(schemaCatalog.VisibilityRow, converter);
/** Codec of `logbook.replies` values. */
export const replyCodec = new RecordCodec<Reply>(schemaCatalog.Reply, converter);

/** Codec of query task topic values. */
export const queryTaskCodec = new RecordCodec<QueryTask>(schemaCatalog.QueryTask, converter);

/** Codec of `logbook.namespaces` values. */
export const namespaceCodec = new RecordCodec<Namespace>(schemaCatalog.Namespace, converter);

/** Codec of `logbook.audit` values. */
export const auditRecordCodec = new RecordCodec<AuditRecord>(schemaCatalog.AuditRecord, converter);

/** Every record codec by record name. */
export const recordCodecs = {
  HistoryEvent: historyEventCodec,
  Command: commandCodec,
  MutableStateSnapshot: mutableStateSnapshotCodec,
  ShardPositions: shardPositionsCodec,
  WorkflowTask: workflowTaskCodec,
  ActivityTask: activityTaskCodec,
  ActivityControl: activityControlCodec,
  VisibilityRow: visibilityRowCodec,
  Reply: replyCodec,
  QueryTask: queryTaskCodec,
  Namespace: namespaceCodec,
  AuditRecord: auditRecordCodec,
} as const satisfies { [K in RecordName]: unknown };
