/** A workflow whose input, activity result and signal carry a customer's personal data (the encryption test). */
import { condition, defineSignal, proxyActivities, setHandler } from 'logbook/workflow';

/** What the workflow starts with. */
export interface Profile {
  readonly customerId: string;
  readonly secret: string;
}

const { describeProfile } = proxyActivities<{ describeProfile(profile: Profile): Promise<string> }>({ startToCloseTimeout: '10s' });

/** Delivers the customer's note. */
export const noteSignal = defineSignal<[string]>('note');

/** Runs the activity on the profile, waits for the note, returns both. */
export async function encryptedProfile(profile: Profile): Promise<{ described: string; note: string }> {
  let note: string | undefined;
  setHandler(noteSignal, (n) => void (note = n));
  const described = await describeProfile(profile);
  await condition(() => note !== undefined);
  return { described, note: note! };
}
