/** `charge` of `temporal-compatible.ts` after a careless change: it now sleeps before charging (for the replay test). */
import { proxyActivities, sleep } from 'logbook/workflow';
import type * as activities from './temporal-compatible-activities.js';

const { chargeCard } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s', retry: { maximumAttempts: 1 } });

/** Sleeps a second, then charges the card: recorded runs of the old code no longer replay. */
export async function charge(card: string): Promise<string> {
  await sleep('1s');
  return chargeCard(card);
}
