/** The hello-world workflow, as in Temporal's sample: only the import path differs. */
import { proxyActivities } from 'logbook/workflow';
import type * as activities from './activities.js';

const { greet } = proxyActivities<typeof activities>({
  startToCloseTimeout: '1 minute',
});

/** A workflow that calls an activity. */
export async function example(name: string): Promise<string> {
  return await greet(name);
}
