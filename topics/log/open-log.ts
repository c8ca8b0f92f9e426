import { MAX_RECORD_BYTES } from '../catalog.js';
import { KafkaLog } from './kafka/kafka-log.js';
import { checkKafkaConnection } from './kafka/connection-check.js';
import type { Log } from './log.js';
import type { KafkaSecurity } from './kafka-security.js';

/** Where the log lives: a Kafka cluster, or the embedded log in a local directory. */
export type LogLocation =
  | { readonly kind: 'kafka'; readonly brokers: readonly string[]; readonly clientId?: string; readonly security?: KafkaSecurity }
  | { readonly kind: 'embedded'; readonly directory: string };

/** Opens the log at a location with the catalog's record size limit unless told otherwise. */
export async function openLog(location: LogLocation, options: { maxRecordBytes?: number } = {}): Promise<Log> {
  const maxRecordBytes = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  if (location.kind === 'kafka') {
    return new KafkaLog({ brokers: location.brokers, maxRecordBytes, ...(location.clientId ? { clientId: location.clientId } : {}), ...(location.security ? { security: location.security } : {}) });
  }
  // Loaded only when asked for: a Kafka process (a worker, a client) needs no LevelDB.
  const { EmbeddedLog } = await import('./embedded/embedded-log.js');
  return EmbeddedLog.open({ directory: location.directory, maxRecordBytes });
}

/**
 * Fails with a clear KafkaConnectionError when a Kafka location cannot be used (nothing listening,
 * TLS or SASL settings that do not fit the listener, refused credentials); nothing to check for
 * the embedded log.
 */
export async function checkLogLocation(location: LogLocation): Promise<void> {
  if (location.kind === 'kafka') await checkKafkaConnection(location.brokers, location.security);
}
