import { confluentSchemaRegistryClient, logbookSubjectStrategy, RegistrySerde } from '../topics/serde/index.js';

/** The schema-registry flags of `dev`, for `util.parseArgs`; each one's default is its environment variable. */
export const SCHEMA_REGISTRY_FLAGS = {
  'schema-registry': { type: 'string' },
  'schema-registry-username': { type: 'string' },
  // Prefer the environment for the password: a flag is visible in the process list.
  'schema-registry-password': { type: 'string' },
} as const;

/** The parsed values of {@link SCHEMA_REGISTRY_FLAGS}. */
export interface SchemaRegistryFlagValues {
  readonly 'schema-registry'?: string;
  readonly 'schema-registry-username'?: string;
  readonly 'schema-registry-password'?: string;
}

/**
 * The Confluent-wire-format serde of the flags (or LOGBOOK_SCHEMA_REGISTRY_URL, _USERNAME, _PASSWORD),
 * with Logbook's subject naming; undefined when no registry is named (single-object encoding).
 * @throws Error naming the flag when the URL is not http(s) or only half of the credentials is given
 */
export function registrySerdeFromFlags(values: SchemaRegistryFlagValues, env: NodeJS.ProcessEnv = process.env): { serde: RegistrySerde; shown: string } | undefined {
  const url = (values['schema-registry'] ?? env.LOGBOOK_SCHEMA_REGISTRY_URL ?? '').trim();
  const username = values['schema-registry-username'] ?? env.LOGBOOK_SCHEMA_REGISTRY_USERNAME ?? '';
  const password = values['schema-registry-password'] ?? env.LOGBOOK_SCHEMA_REGISTRY_PASSWORD ?? '';
  if (!url) {
    if (username || password) throw new Error('a schema-registry username or password is set but no --schema-registry URL (LOGBOOK_SCHEMA_REGISTRY_URL)');
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--schema-registry (LOGBOOK_SCHEMA_REGISTRY_URL) must be an http(s) URL, got '${url}'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--schema-registry (LOGBOOK_SCHEMA_REGISTRY_URL) must be an http(s) URL, got '${url}'`);
  if (Boolean(username) !== Boolean(password)) throw new Error('schema-registry credentials need both --schema-registry-username and --schema-registry-password (LOGBOOK_SCHEMA_REGISTRY_USERNAME, _PASSWORD)');
  // Credentials in the URL itself are never printed.
  const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  const client = confluentSchemaRegistryClient({ url, ...(username ? { auth: { username, password } } : {}) });
  return { serde: new RegistrySerde({ client, subjectStrategy: logbookSubjectStrategy }), shown };
}
