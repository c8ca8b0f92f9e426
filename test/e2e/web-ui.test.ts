import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { startDevServer, type DevServer } from '../support/logbook-cli.js';
import { waitFor } from '../support/test-env.js';

/**
 * The web UI in a real headless Chromium (Debian's, driven by playwright-core) against a dev
 * server: the workflow list and its filters, a run's page with its timeline, a signal and a
 * cancellation sent from the page, schedules, namespaces and a task queue. Screenshots of each page
 * go to test/results/ui/ for a person to look at.
 */

const SHOTS = fileURLToPath(new URL('../results/ui/', import.meta.url));
const ORDER = { sku: 'book', quantity: 1, amountCents: 2500, phone: '+100', packTimeout: '1h', ratingDelay: '1s' };

let server: DevServer;
let browser: Browser;
let page: Page;
let base: string;
/** The confirmations the pages asked for, accepted. */
const dialogs: string[] = [];

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}/api/v1/namespaces/default${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  assert.ok(response.ok, `${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

async function startOrder(workflowId: string): Promise<void> {
  await post('/workflows', { workflowId, workflowType: 'order', taskQueue: 'orders', args: [{ orderId: workflowId, ...ORDER }] });
}

/** Waits until the order has reserved and charged and waits for the seller (its timer started). */
async function waitForSeller(workflowId: string): Promise<void> {
  await waitFor(`${workflowId} to wait for the seller`, async () => {
    const { events } = (await (await fetch(`${base}/api/v1/namespaces/default/workflows/${workflowId}/history`)).json()) as { events: Array<{ attributes: { type: string } }> };
    return events.some((e) => e.attributes.type === 'TimerStarted') ? true : undefined;
  }, 30_000);
}

const shot = (name: string) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
const rowsOf = (selector: string) => page.locator(`${selector} tbody tr`).count();

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  server = await startDevServer();
  base = `http://${server.address}`;
  await startOrder('ui-open');
  await startOrder('ui-done');
  await startOrder('ui-cancel');
  await waitForSeller('ui-done');
  await post('/workflows/ui-done/signals/sellerPacked', { args: [{ parcelId: 'p-done' }] });
  await waitFor('ui-done to complete', async () => ((await (await fetch(`${base}/api/v1/namespaces/default/workflows/ui-done/result?timeout=20s`)).json()) as { status: string }).status === 'Completed' || undefined, 30_000);
  await waitForSeller('ui-open');
  await waitForSeller('ui-cancel');
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the workflow list shows every run with status facets and local times; the status filter narrows it and puts the query in the address', async () => {
  await page.goto(`${base}/`);
  await page.waitForSelector('#workflow-table');
  await waitFor('three runs listed', async () => ((await rowsOf('#workflow-table')) === 3 ? true : undefined), 15_000);
  assert.match((await page.locator('#facets').textContent()) ?? '', /Running 2.*Completed 1/);
  const started = await page.locator('#workflow-table tbody tr').first().locator('td').nth(4).textContent();
  assert.match(started ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, 'start time in local time');
  await shot('workflow-list');
  await page.selectOption('#filter-status', 'Completed');
  await page.click('#build');
  await page.waitForURL(/query=ExecutionStatus/);
  await waitFor('the filtered list', async () => ((await rowsOf('#workflow-table')) === 1 ? true : undefined), 10_000);
  assert.equal(await page.locator('#workflow-table tbody tr td').first().textContent(), 'ui-done');
  assert.equal(await page.inputValue('#query'), "ExecutionStatus = 'Completed'");
  await shot('workflow-list-filtered');
});

test("a run's page shows its summary, input, pending timer and a timeline of its activities and timer; a signal sent from it grows the history and completes the order", async () => {
  await page.goto(`${base}/namespaces/default/workflows?query=${encodeURIComponent("WorkflowId = 'ui-open'")}`);
  await page.waitForSelector('#workflow-table a');
  await page.click('#workflow-table a');
  await page.waitForSelector('#summary table');
  assert.match(page.url(), /\/namespaces\/default\/workflows\/ui-open\/[0-9a-f-]{36}$/);
  assert.equal(await page.textContent('#run-status'), 'Running');
  assert.match((await page.textContent('#input')) ?? '', /"orderId": "ui-open"/);
  assert.equal(await rowsOf('#pending-timers'), 1);
  await shot('run');
  await page.click('#view-timeline');
  await page.waitForSelector('svg.timeline');
  assert.equal(await page.locator('svg.timeline rect[data-kind="activity"]').count(), 2, 'reserveStock and chargeCard');
  assert.equal(await page.locator('svg.timeline rect[data-kind="timer"][data-outcome="open"]').count(), 1, 'the seller timer, still open');
  await shot('run-timeline');
  await page.click('#view-compact');
  const before = await rowsOf('#events-compact');
  await page.fill('#signal-name', 'sellerPacked');
  await page.fill('#signal-args', '[{"parcelId":"p-ui"}]');
  await page.click('#signal');
  assert.match(dialogs.at(-1) ?? '', /^Send signal sellerPacked to ui-open\?$/, 'the signal asked for confirmation first');
  await waitFor('the signal in the history', async () => ((await page.locator('#events-compact td', { hasText: 'WorkflowExecutionSignaled' }).count()) > 0 ? true : undefined), 15_000);
  await waitFor('the order to complete', async () => ((await page.textContent('#run-status')) === 'Completed' ? true : undefined), 30_000);
  assert.ok((await rowsOf('#events-compact')) > before, 'the history grew');
  assert.match((await page.textContent('#result')) ?? '', /"status": "shipped"/);
  await page.click('#view-events');
  await page.locator('#events-full details').first().click();
  assert.match((await page.locator('#events-full details').first().textContent()) ?? '', /WorkflowExecutionStarted/);
  await shot('run-signalled');
});

test('cancel from the page, confirmed, ends the run; the stack trace button shows what a run waits on', async () => {
  await page.goto(`${base}/namespaces/default/workflows?query=${encodeURIComponent("WorkflowId = 'ui-cancel'")}`);
  await page.waitForSelector('#workflow-table a');
  await page.click('#workflow-table a');
  await page.waitForSelector('#summary table');
  await page.click('#stack');
  await waitFor('the stack trace', async () => ((await page.textContent('#action-output'))?.includes('waits on') ? true : undefined), 10_000);
  assert.match((await page.textContent('#action-output')) ?? '', /timer 1/);
  await page.fill('#reason', 'customer changed their mind');
  await page.click('#cancel');
  assert.equal(dialogs.at(-1), 'Cancel ui-cancel?');
  await waitFor('the run to close', async () => ((await page.textContent('#run-status')) !== 'Running' ? true : undefined), 30_000);
  assert.match((await page.textContent('#events-compact')) ?? '', /WorkflowExecutionCancelRequested/);
  await shot('run-cancelled');
});

test('schedules (list, a schedule with its upcoming actions, pause), namespaces and a task queue have pages', async () => {
  await post('/schedules', { scheduleId: 'ui-nightly', spec: { cronExpressions: ['0 2 * * *'] }, action: { workflowType: 'order', taskQueue: 'orders', args: [{ orderId: 'nightly', ...ORDER }] } });
  await page.goto(`${base}/namespaces/default/schedules`);
  await page.waitForSelector('#schedule-table a');
  await shot('schedules');
  await page.click('#schedule-table a');
  await page.waitForSelector('#upcoming li');
  assert.equal(await page.textContent('#schedule-state'), 'Active');
  await page.click('#pause');
  await waitFor('the schedule paused', async () => ((await page.textContent('#schedule-state')) === 'Paused' ? true : undefined), 10_000);
  await shot('schedule');
  await page.goto(`${base}/namespaces`);
  await page.waitForSelector('#namespace-table');
  assert.match((await page.textContent('#namespace-table')) ?? '', /default/);
  await shot('namespaces');
  await page.goto(`${base}/namespaces/default/task-queues/orders`);
  await page.waitForSelector('#task-queue-table');
  assert.ok((await rowsOf('#task-queue-table')) >= 3);
  await shot('task-queue');
});

test("a run that is no longer the workflow's current one (reset, or continued as new) has its page too, with its outcome and history", async () => {
  const { events } = (await (await fetch(`${base}/api/v1/namespaces/default/workflows/ui-done/history`)).json()) as { runId: string; events: Array<{ eventId: number; runId: string; attributes: { type: string } }> };
  const oldRun = events[0]!.runId;
  const firstTask = events.find((e) => e.attributes.type === 'WorkflowTaskCompleted')!.eventId;
  const { runId: newRun } = (await post('/workflows/ui-done/reset', { eventId: firstTask, reason: 'ui test' })) as { runId: string };
  assert.notEqual(newRun, oldRun);
  await page.goto(`${base}/namespaces/default/workflows/ui-done/${oldRun}`);
  await page.waitForSelector('#run-status');
  assert.equal(await page.textContent('#run-status'), 'Completed', 'the old run keeps how it ended');
  assert.ok((await rowsOf('#events-compact')) > 5);
  assert.match((await page.textContent('#input')) ?? '', /"orderId": "ui-done"/);
  await shot('run-older');
});

test('a workflow id holding HTML is shown as text, never run as markup', async () => {
  const hostile = '<img src=x onerror="document.title=\'pwned\'">';
  await post('/workflows', { workflowId: hostile, workflowType: 'order', taskQueue: 'orders', args: [{ orderId: 'x', ...ORDER }] });
  await page.goto(`${base}/namespaces/default/workflows?query=${encodeURIComponent(`WorkflowId = '${hostile.replace(/'/g, "\\'")}'`)}`);
  await page.waitForSelector('#workflow-table a');
  assert.equal(await page.locator('#workflow-table a').textContent(), hostile);
  assert.equal(await page.locator('#workflow-table img').count(), 0);
  await page.click('#workflow-table a');
  await page.waitForSelector('#summary table');
  assert.equal(await page.locator('main img').count(), 0);
  assert.notEqual(await page.title(), 'pwned');
});
