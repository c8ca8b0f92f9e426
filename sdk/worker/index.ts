/**
 * `logbook/worker`: the worker API of Temporal's `@temporalio/worker`. A worker process polls a
 * gateway's HTTP task endpoints, or reads its task topics on the deployment's Kafka cluster when
 * given brokers (a gateway still serves history pages), and runs no engine.
 *
 * @example
 * import { NativeConnection, Worker } from 'logbook/worker';
 * import * as activities from './activities.js';
 * // Through a gateway (what `npm start` serves); add `brokers: ['127.0.0.1:9092']` to read the task topics instead.
 * // With a gateway run with --auth, add `apiKey` (default LOGBOOK_API_KEY): a token holding the queue, e.g. taskQueues ["default:orders"].
 * const connection = await NativeConnection.connect({ address: '127.0.0.1:8233' });
 * const worker = await Worker.create({ connection, namespace: 'default', taskQueue: 'orders', workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)), activities });
 * await worker.run();
 * @module
 */
export { NativeConnection, NativeConnectionError, type NativeConnectionOptions } from './compat/native-connection.js';
export type { TLSConfig } from '../common/gateway-tls.js';
export { bundleWorkflowCode, Worker, type HistoryAndWorkflowId, type ReplayableHistory, type ReplayResult, type ReplayWorkerOptions, type State, type WorkerOptions } from './compat/worker.js';
export { Runtime, type RuntimeOptions } from './compat/runtime.js';
export { DefaultLogger, type LogEntry, type Logger, type LogLevel, type LogMetadata } from '../common/logger.js';
export { gatewayHistoryFetcher } from './gateway-history-fetcher.js';
export { GatewayAccessDeniedError } from './http/gateway-task-client.js';
export type { HistoryFetcher } from './workflow-worker.js';
export type { WorkerConnection } from './worker-connection.js';
export type { DataConverterOption, DataConverterOptions } from '../common/data-converter-option.js';
