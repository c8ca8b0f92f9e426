import { kafkaSecurityFromSettings, kafkaSecuritySettingsFromEnv, type KafkaSecurity } from '../topics/log/kafka-security.js';

/**
 * The Kafka security flags of every command that reaches Kafka, for `util.parseArgs`; each one's
 * default is its environment variable, so flags and environment mix.
 */
export const KAFKA_SECURITY_FLAGS = {
  'kafka-sasl-mechanism': { type: 'string' },
  'kafka-sasl-username': { type: 'string' },
  // A password on the command line is visible to other users of the machine: prefer the environment.
  'kafka-sasl-password': { type: 'string' },
  'kafka-tls': { type: 'boolean' },
  'kafka-tls-ca': { type: 'string' },
  'kafka-tls-cert': { type: 'string' },
  'kafka-tls-key': { type: 'string' },
} as const;

/** The parsed values of {@link KAFKA_SECURITY_FLAGS}. */
export interface KafkaSecurityFlagValues {
  readonly 'kafka-sasl-mechanism'?: string;
  readonly 'kafka-sasl-username'?: string;
  readonly 'kafka-sasl-password'?: string;
  readonly 'kafka-tls'?: boolean;
  readonly 'kafka-tls-ca'?: string;
  readonly 'kafka-tls-cert'?: string;
  readonly 'kafka-tls-key'?: string;
}

/**
 * The security settings of the flags, each unset flag taken from the environment.
 * @throws KafkaSecurityConfigError naming the flag that is wrong or missing
 */
export function kafkaSecurityFromFlags(values: KafkaSecurityFlagValues, env: NodeJS.ProcessEnv = process.env): KafkaSecurity | undefined {
  const fromEnv = kafkaSecuritySettingsFromEnv(env);
  return kafkaSecurityFromSettings({
    saslMechanism: values['kafka-sasl-mechanism'] ?? fromEnv.saslMechanism,
    saslUsername: values['kafka-sasl-username'] ?? fromEnv.saslUsername,
    saslPassword: values['kafka-sasl-password'] ?? fromEnv.saslPassword,
    tls: values['kafka-tls'] ?? fromEnv.tls,
    tlsCa: values['kafka-tls-ca'] ?? fromEnv.tlsCa,
    tlsCert: values['kafka-tls-cert'] ?? fromEnv.tlsCert,
    tlsKey: values['kafka-tls-key'] ?? fromEnv.tlsKey,
  });
}
