import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Log } from '../../topics/log/log.js';
import { openLog } from '../../topics/log/open-log.js';
import type { KafkaSecurity, SaslMechanism } from '../../topics/log/kafka-security.js';
import { securedListenerFromEnv } from '../kafka/secured-listener.js';

/** The brokers of the real Kafka the test command started; a Kafka test without them fails loudly. */
export function kafkaBrokers(): string[] {
  const brokers = process.env.LOGBOOK_KAFKA_BROKERS;
  if (!brokers) {
    throw new Error('LOGBOOK_KAFKA_BROKERS is not set: run Kafka tests through `npm test`, which starts a broker');
  }
  return brokers.split(',');
}

/** A unique name for topics, groups and transactional ids, so tests never share state. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** A log backend under test: how to open a fresh log and how to clean up afterwards. */
export interface TestBackend {
  readonly name: 'kafka' | 'embedded';
  /** Opens a client of this backend (for embedded: on a fresh data directory). */
  open(): Promise<Log>;
  /** Opens another client of the same log (Kafka: a new client; embedded: the same instance). */
  openAnother(log: Log): Promise<Log>;
  cleanup(): Promise<void>;
}

/** The embedded backend in a temporary directory. */
export async function embeddedBackend(): Promise<TestBackend> {
  const directories: string[] = [];
  const logs: Log[] = [];
  return {
    name: 'embedded',
    async open() {
      const directory = await mkdtemp(join(tmpdir(), 'logbook-test-'));
      directories.push(directory);
      const log = await openLog({ kind: 'embedded', directory });
      logs.push(log);
      return log;
    },
    async openAnother(log) {
      return log;
    },
    async cleanup() {
      for (const log of logs) await log.close();
      for (const d of directories) await rm(d, { recursive: true, force: true });
    },
  };
}

/** The real Kafka broker started by the test command. */
export function kafkaBackend(): TestBackend {
  const logs: Log[] = [];
  const open = async () => {
    const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers(), clientId: uniqueName('test') });
    logs.push(log);
    return log;
  };
  return { name: 'kafka', open, openAnother: open, async cleanup() { for (const log of logs) await log.close(); } };
}

/** Polls `check` until it returns a value other than undefined/false, or fails naming `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The broker's SASL_SSL listener as a client of one SASL mechanism reaches it. */
export interface SecuredKafka {
  readonly brokers: string[];
  readonly security: KafkaSecurity;
  /** The same settings as a deployment's environment (LOGBOOK_KAFKA_SASL_*, LOGBOOK_KAFKA_TLS_CA). */
  readonly env: Record<string, string>;
}

/** The secured listener of the test broker, with the test user's credentials for `mechanism`. */
export function securedKafka(mechanism: SaslMechanism): SecuredKafka {
  const listener = securedListenerFromEnv();
  return {
    brokers: listener.brokers,
    security: { tls: { caFile: listener.caFile }, sasl: { mechanism, username: listener.username, password: listener.password } },
    env: {
      LOGBOOK_KAFKA_TLS_CA: listener.caFile,
      LOGBOOK_KAFKA_SASL_MECHANISM: mechanism,
      LOGBOOK_KAFKA_SASL_USERNAME: listener.username,
      LOGBOOK_KAFKA_SASL_PASSWORD: listener.password,
    },
  };
}
