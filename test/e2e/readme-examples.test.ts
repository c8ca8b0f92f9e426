import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOGBOOK_BIN, startDevServer } from '../support/logbook-cli.js';

/**
 * The README's shell examples run as written, in the README's order, against a dev server started
 * as the README says: every `curl` line and every `npx logbook` line of its sh/bash blocks. A
 * drift (a route, a flag, an event id or a field that changed) fails here, naming the line.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Examples that need what a dev server on the embedded log does not have, and why. */
const NEEDS_KAFKA = /^npx logbook ingress /;

/** The commands of the README's sh/bash blocks: continuation lines joined, trailing comments dropped. */
function readmeCommands(readme: string): string[] {
  const commands: string[] = [];
  for (const block of readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)) {
    let pending = '';
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/\s+#\s[^']*$/, '');
      if (pending === '' && !/^(curl|npx logbook) /.test(line)) continue;
      pending += line.replace(/\\$/, ' ');
      if (line.endsWith('\\')) continue;
      commands.push(pending.replace(/\s+/g, ' ').trim());
      pending = '';
    }
  }
  return commands;
}

/** Runs one command with bash; resolves with its output and the HTTP statuses curl reported. */
function runCommand(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string; statuses: number[] }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output, statuses: [...output.matchAll(/HTTP-STATUS (\d{3})/g)].map((m) => Number(m[1])) }));
  });
}

test("every curl and logbook line of the README's shell examples runs against the dev server as written and succeeds", async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const commands = readmeCommands(readme).filter((c) => !NEEDS_KAFKA.test(c));
  assert.ok(commands.filter((c) => c.startsWith('curl')).length >= 10, `curl lines found: ${commands.length}`);
  const server = await startDevServer();
  const scratch = await mkdtemp(join(tmpdir(), 'logbook-readme-'));
  try {
    // The examples' relative paths: the repository's examples, and a folder for exported histories.
    await symlink(join(ROOT, 'examples'), join(scratch, 'examples'));
    await mkdir(join(scratch, 'histories'));
    // Every curl reports its status on stderr, whatever the example does with stdout.
    await writeFile(join(scratch, '.curlrc'), 'write-out = "%{stderr}\\nHTTP-STATUS %{http_code}\\n"\n');
    const env = { CURL_HOME: scratch, LOGBOOK_ADDRESS: `127.0.0.1:${server.port}` };
    for (const command of commands) {
      const runnable = command.replace(/(localhost|127\.0\.0\.1):8233/g, `127.0.0.1:${server.port}`).replace(/^npx logbook /, `node ${LOGBOOK_BIN} `);
      const { code, output, statuses } = await runCommand(runnable, scratch, env);
      assert.equal(code, 0, `${command}\n${output}`);
      for (const status of statuses) assert.ok(status >= 200 && status < 300, `${command}\nanswered HTTP ${status}:\n${output}`);
    }
  } finally {
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  }
});
