/**
 * The README's hello-world as a user runs it: `examples/hello-world/worker.ts` and `client.ts`,
 * each a process of its own with no engine code.
 * @module
 */
import assert from 'node:assert/strict';
import { startNoEngineProcess } from './no-engine-process.js';

/** Runs the worker and the client with `env`, checks the client prints the greeting, and that the worker stops on SIGINT. */
export async function assertHelloWorldRuns(env: Record<string, string>): Promise<void> {
  const worker = await startNoEngineProcess(['examples/hello-world/worker.ts'], env, /worker polling task queue hello-world/);
  const client = await startNoEngineProcess(['examples/hello-world/client.ts'], env, null);
  assert.equal(await client.exited, 0, client.output.join(''));
  assert.match(client.output.join(''), /^Started workflow workflow-[0-9a-f-]{36}\nHello, Temporal!\n$/);
  worker.process.kill('SIGINT');
  assert.equal(await worker.exited, 0, worker.output.join(''));
}
