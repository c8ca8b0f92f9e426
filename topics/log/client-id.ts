import { hostname } from 'node:os';

/**
 * The Kafka client id of a process in one role (`engine`, `worker`, `client`, …):
 * `logbook-<role>-<host>-<pid>`, so broker logs, quotas and `kafka-consumer-groups --members`
 * tell the nodes and their roles apart.
 */
export function defaultClientId(role: string): string {
  // Kafka accepts letters, digits, '.', '_' and '-' in a client id.
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '_');
  return `logbook-${role}-${host}-${process.pid}`;
}
