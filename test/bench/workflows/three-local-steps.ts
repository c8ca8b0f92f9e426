import { proxyLocalActivities } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { step } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '30s' });

/** Benchmark W1 with local activities: the same three steps run by the workflow worker itself, no task-topic hop. */
export async function threeLocalSteps(payload: string): Promise<string> {
  const a = await step(payload);
  const b = await step(a);
  return step(b);
}
