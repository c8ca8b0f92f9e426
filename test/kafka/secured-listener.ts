/**
 * A SASL_SSL listener for the local test broker, beside its PLAINTEXT one: a self-signed
 * certificate for 127.0.0.1 made with the JDK's keytool, SASL PLAIN and SCRAM-SHA-256/512 (SCRAM
 * credentials are written into the metadata log when the storage is formatted). The broker runs
 * Kafka's ACL authorizer: the engine's user and the PLAINTEXT listener (ANONYMOUS) are super users
 * and may do anything; the tenant users may do only what ACLs grant them (see the tenant ACL test).
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a client needs to reach the secured listener. */
export interface SecuredListener {
  /** `127.0.0.1:port` of the SASL_SSL listener of each node. */
  readonly brokers: string[];
  /** The broker certificate (self-signed, so it is its own CA), PEM. */
  readonly caFile: string;
  readonly username: string;
  readonly password: string;
}

/** The engine's user of the secured listener, for every mechanism: a super user. */
export const SECURED_USER = { username: 'logbook', password: 'logbook-secret' } as const;

/** Tenant users: authenticated, but allowed only what ACLs grant them. */
export const TENANT_USERS = [
  { username: 'billing', password: 'billing-secret' },
  { username: 'shipping', password: 'shipping-secret' },
] as const;

/** keytool beside the java that runs the broker. */
function keytoolBin(): string {
  return process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'keytool') : 'keytool';
}

/**
 * Makes the listener's key store and CA file in `dir`, and returns the broker properties that
 * open it (the listener itself is named in `listeners` by `serverProperties`).
 */
export async function securedListenerConfig(dir: string): Promise<{ properties: Record<string, string>; listener: Omit<SecuredListener, 'brokers'> }> {
  await mkdir(dir, { recursive: true });
  const keystore = join(dir, 'broker.p12');
  const caFile = join(dir, 'ca.pem');
  const storePassword = 'logbook-keystore';
  await run(keytoolBin(), [
    '-genkeypair', '-alias', 'broker', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '30',
    '-dname', 'CN=localhost', '-ext', 'SAN=ip:127.0.0.1,dns:localhost',
    '-keystore', keystore, '-storetype', 'PKCS12', '-storepass', storePassword, '-keypass', storePassword,
  ]);
  const { stdout: pem } = await run(keytoolBin(), ['-exportcert', '-rfc', '-alias', 'broker', '-keystore', keystore, '-storepass', storePassword]);
  await writeFile(caFile, pem);
  const { username, password } = SECURED_USER;
  const scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  return {
    listener: { caFile, username, password },
    properties: {
      'sasl.enabled.mechanisms': 'PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
      'listener.name.sasl_ssl.plain.sasl.jaas.config': `org.apache.kafka.common.security.plain.PlainLoginModule required user_${username}="${password}"${TENANT_USERS.map((u) => ` user_${u.username}="${u.password}"`).join('')};`,
      'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      // Brokers, controllers and every PLAINTEXT client are ANONYMOUS; the engine's SASL user is logbook.
      'super.users': `User:ANONYMOUS;User:${username}`,
      'listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config': scram,
      'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config': scram,
      'listener.name.sasl_ssl.ssl.keystore.type': 'PKCS12',
      'listener.name.sasl_ssl.ssl.keystore.location': keystore,
      'listener.name.sasl_ssl.ssl.keystore.password': storePassword,
      'listener.name.sasl_ssl.ssl.key.password': storePassword,
    },
  };
}

/** The `kafka-storage format` arguments that create the user's SCRAM credentials. */
export function scramFormatArguments(): string[] {
  return [SECURED_USER, ...TENANT_USERS].flatMap(({ username, password }) => ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((m) => ['--add-scram', `${m}=[name=${username},password=${password}]`]));
}

/** The environment variables through which tests find the secured listener. */
export function securedListenerEnv(listener: SecuredListener): Record<string, string> {
  return {
    LOGBOOK_KAFKA_SECURED_BROKERS: listener.brokers.join(','),
    LOGBOOK_KAFKA_SECURED_CA: listener.caFile,
    LOGBOOK_KAFKA_SECURED_USERNAME: listener.username,
    LOGBOOK_KAFKA_SECURED_PASSWORD: listener.password,
  };
}

/**
 * The secured listener a test run was given in the environment.
 * @throws Error saying how to get one, so a test without it fails at once
 */
export function securedListenerFromEnv(env: NodeJS.ProcessEnv = process.env): SecuredListener {
  const brokers = (env.LOGBOOK_KAFKA_SECURED_BROKERS ?? '').split(',').filter(Boolean);
  const { LOGBOOK_KAFKA_SECURED_CA: caFile, LOGBOOK_KAFKA_SECURED_USERNAME: username, LOGBOOK_KAFKA_SECURED_PASSWORD: password } = env;
  if (brokers.length === 0 || !caFile || !username || !password) {
    throw new Error(
      'LOGBOOK_KAFKA_SECURED_* is not set: the SASL_SSL tests need the secured listener that `npm test` opens on its broker; ' +
        'with a broker of your own, start it with `npm run kafka:start` and export every LOGBOOK_KAFKA_* line it prints.',
    );
  }
  return { brokers, caFile, username, password };
}
