import { LogbookError } from '../../errors.js';
import { describeKafkaSecurity, type KafkaSecurity } from '../kafka-security.js';
import { Kafka, logLevel } from './kafkajs.js';
import { kafkaJsSecurity } from './kafkajs-security.js';

/** How long the check waits for the brokers before saying why it thinks they did not answer. */
const CHECK_TIMEOUT_MS = 15_000;

/** The brokers could not be reached or refused this client; the message says which setting to look at. */
export class KafkaConnectionError extends LogbookError {
  constructor(message: string, cause?: unknown) {
    super('KAFKA_CONNECTION', message, { cause, retriable: true });
  }
}

/**
 * Connects once to the brokers with these settings and fails with a message a person can act on
 * when they cannot be used: nothing listening, a TLS listener reached in plaintext (the client
 * would otherwise wait and retry without saying why), an untrusted certificate, a listener that
 * wants SASL, or refused credentials. A process runs this before it starts its clients.
 * @throws KafkaConnectionError
 */
export async function checkKafkaConnection(brokers: readonly string[], security: KafkaSecurity | undefined, timeoutMs = CHECK_TIMEOUT_MS): Promise<void> {
  const kafka = new Kafka({
    clientId: 'logbook-connection-check',
    brokers: [...brokers],
    ...kafkaJsSecurity(security),
    logLevel: logLevel.NOTHING,
    connectionTimeout: Math.min(5_000, timeoutMs),
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)));
  try {
    await Promise.race([admin.connect().then(() => admin.describeCluster()), late]);
  } catch (error) {
    throw new KafkaConnectionError(explain(brokers, security, error), error);
  } finally {
    clearTimeout(timer);
    await admin.disconnect().catch(() => undefined);
  }
}

function explain(brokers: readonly string[], security: KafkaSecurity | undefined, error: unknown): string {
  const e = error as { name?: string; message?: string; code?: string };
  const text = `${e.message ?? String(error)}`;
  const where = `Kafka at ${brokers.join(',')} (${describeKafkaSecurity(security)})`;
  if (e.name === 'KafkaJSSASLAuthenticationError') {
    return `${where} refused the credentials: ${text}; check --kafka-sasl-username and --kafka-sasl-password (LOGBOOK_KAFKA_SASL_USERNAME, LOGBOOK_KAFKA_SASL_PASSWORD) and the mechanism`;
  }
  if (/ECONNREFUSED/.test(text)) return `nothing listens at ${brokers.join(',')}: is the broker running, and is this its client listener? (${text})`;
  if (/certificate|self.signed|unable to verify|CERT_/i.test(text)) {
    return `${where}: the brokers' TLS certificate is not trusted (${text}); name the CA that signed it with --kafka-tls-ca FILE (LOGBOOK_KAFKA_TLS_CA)`;
  }
  if (security?.tls && /before secure TLS connection|wrong version number|EPROTO/i.test(text)) {
    return `${where}: the listener did not answer TLS (${text}); if it is a PLAINTEXT or SASL_PLAINTEXT listener, leave --kafka-tls off`;
  }
  if (security?.tls && !security.sasl && /Closed connection|disconnected/i.test(text)) {
    return `${where} closed the connection after TLS: the listener probably requires SASL (SASL_SSL); set --kafka-sasl-mechanism, --kafka-sasl-username and --kafka-sasl-password (${text})`;
  }
  if (!security?.tls && /no answer within|timed out|Closed connection|disconnected/i.test(text)) {
    return `${where} did not answer in plaintext (${text}): if this listener uses TLS (SSL or SASL_SSL), set --kafka-tls (LOGBOOK_KAFKA_TLS=true), and SASL settings if it needs them`;
  }
  return `${where} could not be used: ${text}`;
}
