/**
 * `logbook/client`: the client API of Temporal's `@temporalio/client`, over a Logbook gateway or,
 * with `Connection.connect({ brokers })`, over Kafka itself. A Temporal user moves by changing
 * `@temporalio/client` to `logbook/client`.
 *
 * Logbook's own clients stay beside it: `WorkflowClient` of `./workflow-client.js` (the gateway
 * client this one is built on, answering outcomes instead of throwing) and `CommandClient` of
 * `./command-client.js` (straight to Kafka, no gateway).
 * @module
 */
export { Client, type ClientOptions } from './compat/client.js';
export { ActivityCancelledError, ActivityNotFoundError, AsyncCompletionClient, type FullActivityId } from './compat/async-completion-client.js';
export {
  ScheduleAlreadyRunning,
  ScheduleClient,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Backfill,
  type ScheduleDescription,
  type ScheduleHandle,
  type ScheduleOptions,
  type ScheduleSpec,
  type SchedulePolicies,
  type ScheduleSummary,
  type ScheduleUpdateOptions,
} from './compat/schedule-client.js';
export { Connection, ConnectionError, DEFAULT_GATEWAY_ADDRESS, type ConnectionOptions } from './compat/connection.js';
export type { TLSConfig } from '../common/gateway-tls.js';
export type { CalendarField, CalendarRange, CalendarSpec, DayOfWeek, Month } from './compat/schedule-calendars.js';
export { WithStartWorkflowOperation, WorkflowClient, type WorkflowSignalWithStartOptions, type WorkflowStartOptions } from './compat/workflow-client.js';
export { WorkflowUpdateStage, type Workflow, type WorkflowHandle, type WorkflowResultType } from './compat/workflow-handle.js';
export type { WorkflowExecutionDescription, WorkflowExecutionInfo, WorkflowExecutionStatusName } from './compat/workflow-descriptions.js';
export { WorkflowContinuedAsNewError, WorkflowFailedError, WorkflowNotFoundError } from './compat/workflow-errors.js';
export { WorkflowUpdateFailedError, type WorkflowUpdateHandle } from './workflow-updates.js';
export { WorkflowClientError as ServiceError } from './gateway-call.js';
export * from '../common/index.js';
export { withSubject } from '../../topics/payload/subject-marker.js';
export type { DataConverterOption, DataConverterOptions } from '../common/data-converter-option.js';
