import { workflowKey } from '../../topics/catalog.js';
import type { LogRecord } from '../../topics/log/log.js';
import { recordSize } from '../../topics/log/record-size.js';
import type { Command } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { commandCodec } from '../../topics/serde/index.js';
import { applyCommand, errorReply, requestedRunIdOf, type InputFacts, type Transition } from '../history/index.js';
import { acknowledged } from './acknowledgements.js';
import type { BatchWork } from './batch-work.js';
import { routeRecord } from './input-router.js';
import { InputFailure, InputStep, inStep } from './input-steps.js';
import { Keyspace } from './store-layout.js';
import type { Quarantine } from './suspect-inputs.js';
import { transitionRecords } from './transition-records.js';

/**
 * Handles one input record through every step (input-steps.ts), each isolated: a record that
 * fails a step is dead-lettered with the reason, the step and its source position, its waiting
 * caller (if it decoded far enough to name one) gets an Error reply, and the batch goes on
 * without it. Only a retriable failure (the infrastructure's, not the record's) propagates.
 */
export async function handleInput(work: BatchWork, record: LogRecord, quarantine: Quarantine | undefined): Promise<void> {
  let command: Command | undefined;
  try {
    if (quarantine) {
      command = await decodeQuietly(work, record);
      throw new InputFailure(InputStep.quarantine, 'QUARANTINED', `this input made shard ${work.ctx.shard} fail twice in a row, so it is set aside: ${quarantine.reason}`);
    }
    const route = routeRecord(record, work.ctx.shard, work.ctx.catalog);
    if (!route.here) {
      if (recordSize(route.forward) > work.ctx.log.maxRecordBytes) throw new InputFailure(InputStep.route, 'RECORD_TOO_LARGE', `a ${recordSize(route.forward)}-byte record keyed for another shard is over the record limit and cannot be forwarded`);
      work.add([route.forward]);
      work.note(record, 'forwarded');
      return;
    }
    command = await inStep(InputStep.decode, () => decodeCommand(work, record));
    await applyInput(work, record, command);
  } catch (error) {
    if (!(error instanceof InputFailure)) throw error;
    await failInput(work, record, command, error);
  }
}

async function decodeCommand(work: BatchWork, record: LogRecord): Promise<Command> {
  const command = await work.ctx.serde.decode(commandCodec, record.value!);
  const key = workflowKey(command.namespace, command.workflowId);
  if (key !== record.key!.toString('utf8')) {
    throw new InputFailure(InputStep.decode, 'KEY_MISMATCH', `the record key ${record.key!.toString('utf8')} is not the command's ${key}`);
  }
  return command;
}

/** The command of a quarantined record, if it decodes, only to answer its caller. */
async function decodeQuietly(work: BatchWork, record: LogRecord): Promise<Command | undefined> {
  try {
    return record.value ? await work.ctx.serde.decode(commandCodec, record.value) : undefined;
  } catch {
    return undefined;
  }
}

async function applyInput(work: BatchWork, record: LogRecord, command: Command): Promise<void> {
  const key = workflowKey(command.namespace, command.workflowId);
  const current = await work.stateOf(key);
  const facts = await inStep(InputStep.validate, () => factsOf(work, key, current, command));
  const now = Math.max(work.ctx.clock(), current?.executionInfo.lastEventTime ?? 0);
  const transition = acknowledged(command, await inStep(InputStep.apply, () => applyCommand(current, command, now, work.ctx.history, facts)));
  const prepared = await transitionRecords(work, key, current, transition);
  work.keep(key, transition.state, transition.changed, transition.events, prepared);
  const rejection = transition.rejection;
  if (rejection && shouldDeadLetterRejection(command, transition)) {
    work.deadLetter(record, { code: rejection.code, reason: rejection.message, step: InputStep.apply });
    work.note(record, 'dead-lettered', { step: InputStep.apply, code: rejection.code });
  } else {
    work.note(record, rejection ? 'rejected' : 'applied');
  }
}

/** What the machine cannot look up itself: whether a start names a run id an earlier run of the workflow used. */
async function factsOf(work: BatchWork, key: string, current: MutableStateSnapshot | null, command: Command): Promise<InputFacts> {
  const runId = requestedRunIdOf(command);
  if (runId === null || current === null || current.executionInfo.runId === runId) return {};
  const row = await work.ctx.store.get(Keyspace.visibility, `${key}/${runId}`);
  return row === undefined ? {} : { runIdUsedEarlier: true };
}

/**
 * A refused command nobody waits on is dead-lettered with the reason. Stale claims and results
 * are the normal residue of retries and redeliveries: dropped quietly. A refused signal from
 * another workflow is answered to it (transition.commands), not dead-lettered.
 */
function shouldDeadLetterRejection(command: Command, transition: Transition): boolean {
  const rejection = transition.rejection;
  if (!rejection || command.replyTo || transition.commands.length > 0) return false;
  return !rejection.code.startsWith('Stale');
}

async function failInput(work: BatchWork, record: LogRecord, command: Command | undefined, failure: InputFailure): Promise<void> {
  work.deadLetter(record, { code: failure.code, reason: failure.message, step: failure.step });
  work.note(record, failure.step === InputStep.quarantine ? 'quarantined' : 'dead-lettered', { step: failure.step, code: failure.code });
  if (!command?.replyTo) return;
  const reply = errorReply(command.replyTo, null, { code: failure.code, message: failure.message });
  // A reply that cannot be encoded must not take the batch with it: the dead letter says it all.
  await work.reply(reply).catch(() => undefined);
}
