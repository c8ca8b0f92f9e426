import { COMPATIBILITY, SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import type { SchemaRegistryClient } from './schema-registry-client.js';
import { SchemaRegistryError } from './schema-registry-error.js';

/** Options of {@link confluentSchemaRegistryClient}. */
export interface ConfluentSchemaRegistryClientOptions {
  /** Base URL of the registry (from configuration; never hard-coded). */
  url: string;
  /** Basic auth, if the registry needs it. */
  auth?: { username: string; password: string };
  /**
   * Compatibility level set on a subject the first time we register into it. Default BACKWARD
   * (a new schema must read old records), which is how Logbook schemas evolve.
   */
  compatibility?: keyof typeof COMPATIBILITY;
}

/**
 * Adapts `@kafkajs/confluent-schema-registry` (the only place it is imported) to
 * {@link SchemaRegistryClient}, mapping its failures to {@link SchemaRegistryError}.
 *
 * Not covered by unit tests: there is no registry to run against here.
 */
export function confluentSchemaRegistryClient(options: ConfluentSchemaRegistryClientOptions): SchemaRegistryClient {
  const registry = new SchemaRegistry(
    { host: options.url, ...(options.auth ? { auth: options.auth } : {}) },
    // Logbook reads values with its own avsc types; keep the library's parsing consistent anyway.
    { [SchemaType.AVRO]: { wrapUnions: 'auto' } },
  );
  const compatibility = COMPATIBILITY[options.compatibility ?? 'BACKWARD'];
  return {
    async register(subject, schemaJson) {
      try {
        const { id } = await registry.register({ type: SchemaType.AVRO, schema: schemaJson }, { subject, compatibility });
        return id;
      } catch (err) {
        throw wrap(err, `registering a schema under subject ${subject}`);
      }
    },
    async getSchema(id) {
      try {
        const schema: unknown = await registry.getSchema(id);
        // The library returns an avsc Type for Avro schemas; we want the JSON.
        const withSchema = schema as { schema?: (opts?: object) => unknown };
        return typeof withSchema.schema === 'function' ? withSchema.schema({ exportAttrs: true }) : schema;
      } catch (err) {
        throw wrap(err, `fetching schema id ${id}`);
      }
    },
  };
}

function wrap(err: unknown, what: string): SchemaRegistryError {
  const status = (err as { status?: unknown } | null)?.status;
  const message = err instanceof Error ? err.message : String(err);
  return new SchemaRegistryError(`schema registry failed ${what}: ${message}`, typeof status === 'number' ? status : undefined, {
    cause: err,
  });
}
