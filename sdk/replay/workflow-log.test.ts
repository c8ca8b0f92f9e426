import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, runtimeLogger, setRuntimeLogger, type LogEntry } from '../common/logger.js';
import { bundleWorkflowCode } from '../workflow/bundle.js';
import type { LogLevel } from '../workflow/bridge.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, nextTask } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

const bundle = () => bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./test-workflows/logging.ts', import.meta.url)) });

test('the workflow log writes each line once: a full replay of the run logs only what runs live', async () => {
  const lines: Array<{ level: LogLevel; args: unknown[] }> = [];
  const h = new HistoryBuilder({ workflowType: 'loggingTwice' }).start();
  const live = WorkflowRun.create(await bundle(), h.identity, { logger: (level, args) => lines.push({ level, args }) });
  h.completeTask(commandsOf(nextTask(live, h)));
  live.dispose();
  // The arguments come from the sandbox's realm: compared as plain data.
  const plain = () => JSON.parse(JSON.stringify(lines)) as unknown;
  assert.deepEqual(plain(), [{ level: 'info', args: ['before the timer', { step: 1 }] }]);

  // Another worker rebuilds the run after the timer fired: the first line is replayed, not logged again.
  h.timerFired('1').scheduleTask();
  const replayed = WorkflowRun.create(await bundle(), h.identity, { logger: (level, args) => lines.push({ level, args }) });
  replayed.activate(h.events);
  replayed.dispose();
  assert.deepEqual(plain(), [
    { level: 'info', args: ['before the timer', { step: 1 }] },
    { level: 'warn', args: ['after the timer'] },
  ]);
});

test("without a logger of its own a run logs to the process's logger with the run's attributes", async () => {
  const entries: LogEntry[] = [];
  const before = runtimeLogger();
  setRuntimeLogger(new DefaultLogger('TRACE', (entry) => entries.push(entry)));
  try {
    const h = new HistoryBuilder({ workflowType: 'loggingTwice' }).start();
    const run = WorkflowRun.create(await bundle(), h.identity);
    nextTask(run, h);
    run.dispose();
  } finally {
    setRuntimeLogger(before);
  }
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.level, 'INFO');
  assert.equal(entries[0]!.message, 'before the timer');
  assert.deepEqual({ ...entries[0]!.meta, runId: typeof entries[0]!.meta?.runId }, { sdkComponent: 'workflow', namespace: 'default', taskQueue: entries[0]!.meta?.taskQueue, workflowId: entries[0]!.meta?.workflowId, runId: 'string', workflowType: 'loggingTwice', step: 1 });
});
