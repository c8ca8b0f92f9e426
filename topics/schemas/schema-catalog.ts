import { activityControlSchemas } from './activity-control/index.js';
import { activityTaskSchemas } from './activity-task/index.js';
import { auditRecordSchemas } from './audit-record/index.js';
import { commandSchemas } from './command/index.js';
import { historyEventSchemas } from './history-event/index.js';
import { mutableStateSnapshotSchemas } from './mutable-state-snapshot/index.js';
import { namespaceSchemas } from './namespace/index.js';
import { queryTaskSchemas } from './query-task/index.js';
import { replySchemas } from './reply/index.js';
import { shardPositionsSchemas } from './shard-positions/index.js';
import { visibilityRowSchemas } from './visibility-row/index.js';
import { workflowTaskSchemas } from './workflow-task/index.js';

/**
 * Every record kind that crosses a topic, with all its schema versions — the public contract for
 * analysts and the serde's source of writer schemas. Dead letters have no schema (original bytes
 * plus headers).
 */
export const schemaCatalog = {
  HistoryEvent: historyEventSchemas,
  Command: commandSchemas,
  MutableStateSnapshot: mutableStateSnapshotSchemas,
  ShardPositions: shardPositionsSchemas,
  WorkflowTask: workflowTaskSchemas,
  ActivityTask: activityTaskSchemas,
  ActivityControl: activityControlSchemas,
  VisibilityRow: visibilityRowSchemas,
  Reply: replySchemas,
  QueryTask: queryTaskSchemas,
  Namespace: namespaceSchemas,
  AuditRecord: auditRecordSchemas,
} as const;

/** Short name of a record kind, e.g. `HistoryEvent`. */
export type RecordName = keyof typeof schemaCatalog;
