import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runLogbookCli } from '../../test/support/logbook-cli.js';

/** `logbook server start-dev` refuses auth settings that cannot work, before it starts anything (exit 2, naming the flag). */

const SECRET = 'a-secret-of-at-least-thirty-two-bytes-long';

test('--auth on Kafka without --task-token-key is refused with exit 2 naming the flag: the nodes could not call each other', async () => {
  const run = await runLogbookCli(['server', 'start-dev', '--auth', '--auth-jwt-secret', SECRET, '--kafka', '127.0.0.1:1'], { LOGBOOK_TASK_TOKEN_KEY: '' });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /--auth with --kafka needs --task-token-key/);
});

test('--auth without a way to authenticate, and a TLS certificate without its key, are refused with exit 2', async () => {
  const noWay = await runLogbookCli(['server', 'start-dev', '--auth'], { LOGBOOK_AUTH_JWT_SECRET: '' });
  assert.equal(noWay.code, 2, noWay.stderr);
  assert.match(noWay.stderr, /--auth needs a way to authenticate callers/);
  const halfTls = await runLogbookCli(['server', 'start-dev', '--tls-cert', '/nonexistent.pem']);
  assert.equal(halfTls.code, 2, halfTls.stderr);
  assert.match(halfTls.stderr, /--tls-cert and --tls-key .* go together/);
});
