import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { SignJWT } from 'jose';
import { launchChromium } from '../support/chromium.js';
import { freePort, startDevServer, type DevServer } from '../support/logbook-cli.js';
import { EncryptionCodec, FileKeyStore, createCodecServer } from '../../sdk/encryption/index.js';
import { defaultDataConverter, toPayloadEnvelope } from '../../topics/payload/index.js';
import { withSubject } from '../../topics/payload/subject-marker.js';

/**
 * The web UI against a gateway run with `--auth`, in a real headless Chromium: it asks for a
 * token on the gateway's 401, signs in with it, and shows a run whose input is encrypted first as
 * the gateway gives it (an envelope), then decoded through the codec endpoint set in the page,
 * and after the subject's key is erased, as KeyErased. Screenshots go to test/results/ui/.
 */

const SHOTS = fileURLToPath(new URL('../results/ui/', import.meta.url));
const SECRET = 'web-ui-auth-secret-of-at-least-32-bytes';
const CODEC_TOKEN = 'codec-token-for-the-ui-test';
const SECRET_TEXT = `card-4111-${process.pid}`;

let server: DevServer;
let codecServer: Server;
let codecBase: string;
let keys: string;
let browser: Browser;
let page: Page;
let base: string;

const sign = (permissions: string[]) => new SignJWT({ permissions }).setProtectedHeader({ alg: 'HS256' }).setSubject('ada').setExpirationTime('10m').sign(new TextEncoder().encode(SECRET));
const shot = (name: string) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  keys = await mkdtemp(join(tmpdir(), 'logbook-ui-keys-'));
  server = await startDevServer(['--no-worker', '--auth', '--auth-jwt-secret', SECRET]);
  base = `http://${server.address}`;
  const codec = new EncryptionCodec({ keys: new FileKeyStore({ directory: keys }) });
  codecServer = createCodecServer({ codecs: [codec], token: CODEC_TOKEN, allowOrigin: base });
  const port = await freePort();
  await new Promise<void>((ready) => codecServer.listen(port, '127.0.0.1', ready));
  codecBase = `http://127.0.0.1:${port}`;
  // What an SDK client with the codec sends: the input encrypted under the customer's key.
  const [encrypted] = await codec.encode([defaultDataConverter.toPayload(withSubject('customer-7', { card: SECRET_TEXT }))]);
  const response = await fetch(`${base}/api/v1/namespaces/default/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await sign(['default:writer'])}` },
    body: JSON.stringify({ workflowId: 'ui-secret', workflowType: 'onboard', taskQueue: 'nobody-polls', args: [toPayloadEnvelope(encrypted!)] }),
  });
  assert.equal(response.status, 201, await response.text());
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
});
after(async () => {
  await browser?.close();
  codecServer?.close();
  await server?.stop();
  await rm(keys, { recursive: true, force: true });
});

test('without a token the UI shows the sign-in form with the gateway’s reason; with a reader token it lists the runs and says who is signed in', async () => {
  await page.goto(`${base}/`);
  await page.waitForSelector('#sign-in');
  assert.match((await page.locator('#sign-in').textContent()) ?? '', /requires authentication/);
  await shot('sign-in');
  await page.fill('#token', await sign(['default:reader']));
  await page.click('#sign-in-submit');
  await page.waitForSelector('#workflow-table tbody tr');
  assert.match((await page.locator('#signed-in').textContent()) ?? '', /ada/);
  assert.match((await page.locator('#workflow-table').textContent()) ?? '', /ui-secret/);
});

test('a run’s encrypted input shows as an envelope, decoded through the codec endpoint once it is set, and as KeyErased after the subject is erased', async () => {
  await page.goto(`${base}/namespaces/default/workflows/ui-secret/${await runIdOf('ui-secret')}`);
  await page.waitForSelector('#view-events');
  const text = () => page.locator('main').textContent().then((t) => t ?? '');
  assert.match(await expandAll().then(text), /\$payload/);
  assert.doesNotMatch(await text(), new RegExp(SECRET_TEXT));
  await page.click('#codec');
  await page.fill('#codec-endpoint', codecBase);
  await page.fill('#codec-token', CODEC_TOKEN);
  await page.click('#codec-save');
  await page.waitForSelector('#view-events');
  await expandAll();
  assert.match(await text(), new RegExp(SECRET_TEXT));
  await shot('run-decoded');
  await new FileKeyStore({ directory: keys }).eraseSubject('customer-7');
  await page.reload();
  await page.waitForSelector('#view-events');
  await expandAll();
  const erased = await text();
  assert.match(erased, /KeyErased/);
  assert.doesNotMatch(erased, new RegExp(SECRET_TEXT));
  await shot('run-key-erased');
});

test('signing out forgets the token: the next page asks for one again', async () => {
  await page.goto(`${base}/`);
  await page.waitForSelector('#sign-out');
  await page.click('#sign-out');
  await page.waitForSelector('#sign-in');
});

/** Shows the run's history as events and opens every one, so their attributes are in the page's text. */
async function expandAll(): Promise<void> {
  await page.click('#view-events');
  await page.waitForSelector('#view-events');
  await page.locator('details.event').evaluateAll((all) => all.forEach((d) => d.setAttribute('open', '')));
}

async function runIdOf(workflowId: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/namespaces/default/workflows/${workflowId}`, { headers: { authorization: `Bearer ${await sign(['default:reader'])}` } });
  return ((await response.json()) as { executionInfo: { runId: string } }).executionInfo.runId;
}
