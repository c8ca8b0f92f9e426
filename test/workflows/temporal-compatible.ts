/**
 * Workflows written against `logbook/workflow` and `logbook/common` only, as a Temporal user
 * writes them after changing import paths (used by the `logbook/client` conformance tests).
 * @module
 */
import { ApplicationFailure } from 'logbook/common';
import {
  ActivityCancellationType, allHandlersFinished, condition, continueAsNew, executeChild, defineQuery, defineSearchAttributeKey, defineSignal, defineUpdate, log, proxyActivities, SearchAttributeType,
  setDefaultQueryHandler, setDefaultSignalHandler, setHandler, sleep, Trigger, upsertMemo, upsertSearchAttributes, workflowInfo,
} from 'logbook/workflow';
import type * as activities from './temporal-compatible-activities.js';

const { chargeCard, describeActivity } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s', retry: { maximumAttempts: 1 } });
// A cancelled approval waits for whoever completes it to report the cancellation.
const { awaitApproval } = proxyActivities<typeof activities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 1 }, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED });

export const approve = defineSignal<[approver: string]>('approve');
export const stage = defineQuery<string>('stage');
export const itemAt = defineQuery<string | null | undefined, [index: number]>('itemAt');
export const addItem = defineUpdate<number, [item: string]>('addItem');

/** Greets. */
export async function greet(name: string): Promise<string> {
  return `Hello, ${name}!`;
}

/** Waits for the `approve` signal; the `stage` query says where it is, `addItem` updates a list. */
export async function approval(): Promise<string> {
  let approver: string | undefined;
  let current = 'waiting for approval';
  const items: string[] = [];
  setHandler(approve, (who) => void (approver = who));
  setHandler(stage, () => current);
  // undefined past the end, null for a slot that was emptied: a client must tell them apart.
  setHandler(itemAt, (index) => (index === -1 ? null : items[index]));
  setHandler(addItem, (item) => items.push(item));
  await condition(() => approver !== undefined);
  current = 'approved';
  return `approved by ${approver} with ${items.length} items`;
}

/** Fails the run with a business failure that carries details. */
export async function rejectOrder(orderId: string): Promise<never> {
  throw ApplicationFailure.nonRetryable(`order ${orderId} rejected`, 'OrderRejected', { orderId });
}

/** Charges a card and lets an activity failure fail the run. */
export async function charge(card: string): Promise<string> {
  return chargeCard(card);
}

/** Continues as new until `round` reaches `rounds`, then answers the round it ended on. */
export async function countdown(round: number, rounds: number): Promise<number> {
  if (round < rounds) await continueAsNew<typeof countdown>(round + 1, rounds);
  return round;
}

/** Never ends on its own (to be cancelled or terminated). */
export async function waitForever(): Promise<void> {
  await condition(() => false);
}

/** Logs, then answers what its activity read of itself. */
export async function inspect(): Promise<unknown> {
  log.info('inspecting', { step: 1 });
  return describeActivity();
}

/** Answers what its asynchronously completed approval activity is completed with. */
export async function approvedAsync(orderId: string): Promise<string> {
  return awaitApproval(orderId);
}

export const tierKey = defineSearchAttributeKey('CustomerTier', SearchAttributeType.KEYWORD);
export const scoreKey = defineSearchAttributeKey('LoyaltyScore', SearchAttributeType.INT);

/** What {@link retier} saw of its search attributes. */
export interface Retiered {
  readonly before: Record<string, unknown[]>;
  readonly after: Record<string, unknown[]>;
  readonly tier: string | null;
  readonly score: number | null;
  readonly tierAsInt: number | null;
}

/**
 * Reads its search attributes, moves to tier gold and drops its coupon (Temporal's untyped form),
 * raises its score (the typed form), and answers what it saw.
 */
export async function retier(): Promise<Retiered> {
  const before = workflowInfo().searchAttributes;
  upsertSearchAttributes({ CustomerTier: ['gold'], Coupon: [] });
  upsertSearchAttributes([{ key: scoreKey, value: 7 }]);
  const { searchAttributes: after, typedSearchAttributes: typed } = workflowInfo();
  const asInt = typed.get(defineSearchAttributeKey('CustomerTier', SearchAttributeType.INT));
  return { before, after, tier: typed.get(tierKey) ?? null, score: typed.get(scoreKey) ?? null, tierAsInt: asInt ?? null };
}

/** Continues as new once, then waits for the `approve` signal and answers who approved. */
export async function continueThenWait(round: number): Promise<string> {
  if (round === 0) await continueAsNew<typeof continueThenWait>(1);
  let approver: string | undefined;
  setHandler(approve, (who) => void (approver = who));
  await condition(() => approver !== undefined);
  return approver!;
}

export const slowUpdate = defineUpdate<string, [ms: number]>('slowUpdate');

/** What {@link generic} returns. */
export interface GenericOutcome {
  readonly received: string[];
  readonly memo: Record<string, unknown>;
  readonly updateFinished: boolean;
}

/**
 * Takes any signal and query through the default handlers, records its stage in the memo, waits
 * on a Trigger the `finish` signal resolves, and returns only once every handler has finished.
 */
export async function generic(): Promise<GenericOutcome> {
  const received: string[] = [];
  const finished = new Trigger<string>();
  let updateFinished = false;
  setDefaultSignalHandler((name, ...args) => {
    received.push(`${name}:${JSON.stringify(args)}`);
    if (name === 'finish') finished.resolve(String(args[0]));
  });
  setDefaultQueryHandler((name, ...args) => ({ name, args, received: received.length, memo: workflowInfo().memo }));
  setHandler(slowUpdate, async (ms) => {
    await sleep(ms);
    updateFinished = true;
    return 'slept';
  });
  upsertMemo({ stage: 'waiting' });
  const by = await finished;
  upsertMemo({ stage: `finished by ${by}` });
  await condition(allHandlersFinished);
  return { received, memo: workflowInfo().memo, updateFinished };
}

/** Runs `rejectOrder` as a child and lets its failure fail this run too. */
export async function parentOfRejected(orderId: string): Promise<never> {
  return executeChild(rejectOrder, { args: [orderId], workflowId: `${orderId}-child` });
}
