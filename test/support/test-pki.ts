/**
 * A throw-away PKI made with `openssl` for tests of the gateway's HTTPS listener and mTLS: a CA, a
 * server certificate for `localhost` and `127.0.0.1`, client certificates it signed (subject CN =
 * their name), and self-signed ones it did not. Valid one day: no test outlives it.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The files of a {@link createTestPki} PKI: `ca.pem`, `server.pem`, `server.key`, `<name>.pem`, `<name>.key`. */
export interface TestPki {
  /** Where the files are. */
  readonly directory: string;
  /** The PEM of each file, by file name. */
  readonly pem: Readonly<Record<string, Buffer>>;
  /** The path of a file, by file name (what `--tls-*` flags take). */
  path(file: string): string;
}

/**
 * Writes a CA, a server certificate and the client certificates under `directory`.
 * @param options.clients names of client certificates the CA signs, each with subject CN = its name
 * @param options.selfSigned file name → subject CN of certificates no CA signed (a rogue client
 *   claiming a known name)
 */
export async function createTestPki(directory: string, options: { clients: readonly string[]; selfSigned?: Readonly<Record<string, string>> }): Promise<TestPki> {
  await mkdir(directory, { recursive: true });
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: directory, stdio: 'pipe' });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=test-ca');
  // Clients get the same SAN as the server: harmless, and one extension file serves all.
  await writeFile(join(directory, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  for (const name of ['server', ...options.clients]) {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name === 'server' ? 'localhost' : name}`);
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', '-extfile', 'ext.cnf');
  }
  for (const [name, cn] of Object.entries(options.selfSigned ?? {})) {
    ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '1', '-subj', `/CN=${cn}`);
  }
  const names = ['server', ...options.clients, ...Object.keys(options.selfSigned ?? {})];
  const files = ['ca.pem', ...names.flatMap((name) => [`${name}.pem`, `${name}.key`])];
  const pem = Object.fromEntries(await Promise.all(files.map(async (file) => [file, await readFile(join(directory, file))] as const)));
  return { directory, pem, path: (file) => join(directory, file) };
}
