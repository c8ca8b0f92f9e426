import type { KafkaConfig } from 'kafkajs';
import { readTlsFiles, type KafkaSecurity } from '../kafka-security.js';

/** The `ssl` and `sasl` parts of a KafkaJS client's configuration for Logbook's security settings. */
export function kafkaJsSecurity(security: KafkaSecurity | undefined): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  if (!security) return {};
  const config: { ssl?: KafkaConfig['ssl']; sasl?: KafkaConfig['sasl'] } = {};
  if (security.tls) {
    const { ca, cert, key } = readTlsFiles(security.tls);
    config.ssl = { ...(ca ? { ca: [ca] } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  }
  if (security.sasl) {
    const { mechanism, username, password } = security.sasl;
    // A literal per branch: KafkaJS's SASL options are a union keyed by mechanism.
    config.sasl =
      mechanism === 'plain' ? { mechanism: 'plain', username, password }
      : mechanism === 'scram-sha-256' ? { mechanism: 'scram-sha-256', username, password }
      : { mechanism: 'scram-sha-512', username, password };
  }
  return config;
}
