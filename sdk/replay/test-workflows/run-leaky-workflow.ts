/**
 * Child process of `unhandled-rejection.test.ts`: runs a workflow that leaves a rejected promise
 * unhandled, lets the host process its rejections, and reports that it is still alive.
 * @module
 */
import { HistoryBuilder } from '../history-builder.js';
import { fullReplay } from '../test-harness.js';

const result = await fullReplay(new HistoryBuilder({ workflowType: 'leavesRejectionUnhandled' }).start());
await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write(`${result.type}; worker alive\n`);
