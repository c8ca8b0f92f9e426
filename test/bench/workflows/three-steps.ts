import { proxyActivities } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { step } = proxyActivities<typeof activities>({ startToCloseTimeout: '30s' });

/** Benchmark W1: three sequential activities with trivial bodies and ~200-byte payloads. */
export async function threeSteps(payload: string): Promise<string> {
  const a = await step(payload);
  const b = await step(a);
  return step(b);
}
