/**
 * How Logbook's Kafka clients authenticate and encrypt: SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)
 * and TLS, for every client of a process (engine, ingress, workers, tools). The same settings come
 * from the programmatic options (`LogLocation.security`), from flags and from the environment; see
 * {@link kafkaSecurityFromSettings}.
 * @module
 */
import { readFileSync } from 'node:fs';
import { LogbookError } from '../errors.js';

/** The SASL mechanisms Logbook's clients speak. */
export const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
/** @see SASL_MECHANISMS */
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

/** SASL credentials. PLAIN sends the password as it is: use it only over TLS. */
export interface KafkaSasl {
  readonly mechanism: SaslMechanism;
  readonly username: string;
  readonly password: string;
}

/** TLS to the brokers. Every field is optional: `{}` trusts the system's certificate authorities. */
export interface KafkaTls {
  /** PEM file of the certificate authorities that signed the brokers' certificates. */
  readonly caFile?: string;
  /** PEM files of a client certificate and its key, for brokers that ask for one (mTLS). */
  readonly certFile?: string;
  readonly keyFile?: string;
}

/** A process's Kafka security settings; absent parts are off (plaintext, no authentication). */
export interface KafkaSecurity {
  readonly sasl?: KafkaSasl;
  readonly tls?: KafkaTls;
}

/** A Kafka security setting that cannot work; the message names the flag and the environment variable. */
export class KafkaSecurityConfigError extends LogbookError {
  constructor(message: string) {
    super('KAFKA_SECURITY_CONFIG', message);
  }
}

/** Flag and environment names of each setting, for the messages. */
const NAMES = {
  mechanism: '--kafka-sasl-mechanism (LOGBOOK_KAFKA_SASL_MECHANISM)',
  username: '--kafka-sasl-username (LOGBOOK_KAFKA_SASL_USERNAME)',
  password: '--kafka-sasl-password (LOGBOOK_KAFKA_SASL_PASSWORD)',
  tls: '--kafka-tls (LOGBOOK_KAFKA_TLS)',
  caFile: '--kafka-tls-ca (LOGBOOK_KAFKA_TLS_CA)',
  certFile: '--kafka-tls-cert (LOGBOOK_KAFKA_TLS_CERT)',
  keyFile: '--kafka-tls-key (LOGBOOK_KAFKA_TLS_KEY)',
} as const;

/** The settings as flags or environment variables give them: strings, empty meaning unset. */
export interface KafkaSecuritySettings {
  readonly saslMechanism?: string;
  readonly saslUsername?: string;
  readonly saslPassword?: string;
  /** `true`/`1` turns TLS on; naming a CA, certificate or key file turns it on too. */
  readonly tls?: string | boolean;
  readonly tlsCa?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
}

/** The settings read from the environment (`LOGBOOK_KAFKA_SASL_*`, `LOGBOOK_KAFKA_TLS*`). */
export function kafkaSecuritySettingsFromEnv(env: NodeJS.ProcessEnv): KafkaSecuritySettings {
  return {
    saslMechanism: env.LOGBOOK_KAFKA_SASL_MECHANISM,
    saslUsername: env.LOGBOOK_KAFKA_SASL_USERNAME,
    saslPassword: env.LOGBOOK_KAFKA_SASL_PASSWORD,
    tls: env.LOGBOOK_KAFKA_TLS,
    tlsCa: env.LOGBOOK_KAFKA_TLS_CA,
    tlsCert: env.LOGBOOK_KAFKA_TLS_CERT,
    tlsKey: env.LOGBOOK_KAFKA_TLS_KEY,
  };
}

const given = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value);

/**
 * Checks settings and turns them into {@link KafkaSecurity}; undefined when none is set.
 * @throws KafkaSecurityConfigError naming the setting that is wrong or missing
 */
export function kafkaSecurityFromSettings(settings: KafkaSecuritySettings): KafkaSecurity | undefined {
  const mechanism = given(settings.saslMechanism)?.toLowerCase();
  const username = given(settings.saslUsername);
  const password = given(settings.saslPassword);
  let sasl: KafkaSasl | undefined;
  if (mechanism !== undefined) {
    if (!(SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
      throw new KafkaSecurityConfigError(`${NAMES.mechanism} must be one of ${SASL_MECHANISMS.join(', ')}, got '${settings.saslMechanism}'`);
    }
    if (username === undefined) throw new KafkaSecurityConfigError(`SASL ${mechanism} needs ${NAMES.username}`);
    if (password === undefined) throw new KafkaSecurityConfigError(`SASL ${mechanism} needs ${NAMES.password}`);
    sasl = { mechanism: mechanism as SaslMechanism, username, password };
  } else if (username !== undefined || password !== undefined) {
    throw new KafkaSecurityConfigError(`a SASL username or password is set but no ${NAMES.mechanism}: say which of ${SASL_MECHANISMS.join(', ')} the brokers expect`);
  }
  const tlsFlag = typeof settings.tls === 'boolean' ? settings.tls : parseTlsFlag(given(settings.tls));
  const files = { caFile: given(settings.tlsCa), certFile: given(settings.tlsCert), keyFile: given(settings.tlsKey) };
  const anyFile = Object.values(files).some((f) => f !== undefined);
  if (tlsFlag === false && anyFile) throw new KafkaSecurityConfigError(`${NAMES.tls} is off, but a TLS file is named: remove one or the other`);
  if ((files.certFile === undefined) !== (files.keyFile === undefined)) {
    throw new KafkaSecurityConfigError(`a client certificate needs both ${NAMES.certFile} and ${NAMES.keyFile}`);
  }
  const tls: KafkaTls | undefined = tlsFlag === true || anyFile ? Object.fromEntries(Object.entries(files).filter(([, v]) => v !== undefined)) : undefined;
  if (sasl === undefined && tls === undefined) return undefined;
  return { ...(sasl ? { sasl } : {}), ...(tls ? { tls } : {}) };
}

function parseTlsFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new KafkaSecurityConfigError(`${NAMES.tls} must be true or false, got '${value}'`);
}

/** The PEM contents of the TLS files, read now so a wrong path fails at start-up, naming its setting. */
export function readTlsFiles(tls: KafkaTls): { ca?: string; cert?: string; key?: string } {
  const read = (file: string | undefined, name: keyof typeof NAMES): string | undefined => {
    if (file === undefined) return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new KafkaSecurityConfigError(`cannot read ${NAMES[name]} ${file}: ${(error as Error).message}`);
    }
  };
  const ca = read(tls.caFile, 'caFile');
  const cert = read(tls.certFile, 'certFile');
  const key = read(tls.keyFile, 'keyFile');
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

/** One line describing the settings for start-up output, never the password. */
export function describeKafkaSecurity(security: KafkaSecurity | undefined): string {
  if (!security) return 'plaintext, no authentication';
  const tls = security.tls ? `TLS${security.tls.caFile ? ` (CA ${security.tls.caFile})` : ''}${security.tls.certFile ? ' with a client certificate' : ''}` : 'no TLS';
  const sasl = security.sasl ? `SASL ${security.sasl.mechanism.toUpperCase()} as ${security.sasl.username}` : 'no SASL';
  return `${tls}, ${sasl}`;
}
