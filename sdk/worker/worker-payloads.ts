import { CodecDataConverter, mapPayloads, payloadsIn, payloadSubjectOf, toPayloadEnvelope, withPayloadSubject, type DataConverter, type Payload, type PayloadCodec } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { RunRef } from './worker-connection.js';
import type { HistoryFetcher } from './workflow-worker.js';

/** The attempt an activity subject belongs to (the fields every activity task and answer carry). */
export interface ActivityAttempt {
  readonly runId: string;
  readonly scheduledEventId: number;
  readonly attempt: number;
}

/** A run's history page decoded, with the subject of its start input (see {@link WorkerPayloads.startSubject}). */
export interface DecodedHistory {
  readonly events: HistoryEvent[];
  readonly subject: string | undefined;
}

/**
 * The payload codecs of a worker, applied at its boundaries: every payload of the tasks and
 * history it receives is decoded before workflow or activity code sees it, and every payload it
 * sends is encoded. Workflow code never runs a codec.
 *
 * Subjects: an outgoing payload nobody marked (`withSubject`) inherits a subject, so personal data
 * stays under its subject's key — a workflow task's payloads take the subject of the run's start
 * input, an activity's its input's. The subject is read from the payloads' metadata on the way in
 * (an encrypted payload names its subject in clear) and stamped as `logbook-subject` on the way out.
 *
 * Where subjects are kept: a run's with its entry in the workflow cache (the task runner reads it
 * from the start event of the run's first task, or of its history on a cache miss), so it lives
 * exactly as long as the cached run; an activity attempt's here, from its decode until the worker
 * calls {@link forgetActivity} when the attempt is answered. Nothing is kept by count, so no busy
 * worker can push a live run's subject out.
 */
export class WorkerPayloads {
  private readonly codecs: CodecDataConverter;
  /** Subject by running activity attempt (`<runId>/<scheduledEventId>/<attempt>`). */
  private readonly attempts = new Map<string, string>();

  constructor(codecs: readonly PayloadCodec[], converter?: DataConverter) {
    this.codecs = new CodecDataConverter({ codecs, ...(converter ? { converter } : {}) });
  }

  /** Decodes every payload inside `value` (a task, a history page, query arguments). */
  async decode<T>(value: T): Promise<T> {
    return mapPayloads(value, async (p) => (await this.codecs.decode([p]))[0]!);
  }

  /**
   * The subject of the run's start input, read from still-encoded `events`: `{ subject }` (undefined
   * when the input names none) if they hold WorkflowExecutionStarted, else undefined — the caller
   * must find the start event elsewhere, never assume the run has no subject.
   */
  startSubject(events: readonly HistoryEvent[]): { subject: string | undefined } | undefined {
    const started = events.find((e) => e.attributes.type === 'WorkflowExecutionStarted');
    return started?.attributes.type === 'WorkflowExecutionStarted' ? { subject: firstSubject(started.attributes.input) } : undefined;
  }

  /**
   * A run's history through `fetcher`, decoded, with its start input's subject.
   * @throws Error when the history does not begin with WorkflowExecutionStarted: without it the
   *   run's subject is unknown, and guessing the default would encrypt the run's data out of reach
   *   of `eraseSubject`
   */
  async fetchHistory(fetcher: HistoryFetcher, run: RunRef, untilEventId: number): Promise<DecodedHistory> {
    const events = await fetcher.fetch(run, untilEventId);
    const start = this.startSubject(events);
    if (!start) throw new Error(`the history of run ${run.runId} has no WorkflowExecutionStarted event, so the data subject of its payloads is unknown`);
    return { events: await this.decode(events), subject: start.subject };
  }

  /** Decodes an activity task, keeping the subject of its input for its answers until {@link forgetActivity}. */
  async decodeActivityTask<T extends ActivityAttempt & { input: readonly Payload[] }>(task: T): Promise<T> {
    const subject = firstSubject(task.input);
    if (subject !== undefined) this.attempts.set(attemptKey(task), subject);
    return this.decode(task);
  }

  /** The subject of the attempt's input; undefined once forgotten or when the input names none. */
  activitySubject(attempt: ActivityAttempt): string | undefined {
    return this.attempts.get(attemptKey(attempt));
  }

  /** The attempt was answered (or handed back): nothing more is encoded for it. */
  forgetActivity(attempt: ActivityAttempt): void {
    this.attempts.delete(attemptKey(attempt));
  }

  /** Activity attempts whose subject is kept now (running ones). */
  get activitiesKept(): number {
    return this.attempts.size;
  }

  /** Encodes every payload inside `value`; unmarked ones are stamped with `subject` first. */
  async encode<T>(value: T, subject: string | undefined): Promise<T> {
    return mapPayloads(value, async (p) => {
      const stamped = subject === undefined || payloadSubjectOf(p) !== undefined ? p : withPayloadSubject(p, subject);
      return (await this.codecs.encode([stamped]))[0]!;
    });
  }

  /** One payload encoded, as the `{ $payload }` envelope the gateway's HTTP API takes in place of a JSON value. */
  async envelope(value: unknown, subject: string | undefined): Promise<unknown> {
    return toPayloadEnvelope(await this.encode(this.codecs.converter.toPayload(value), subject));
  }
}

function attemptKey(a: ActivityAttempt): string {
  return `${a.runId}/${a.scheduledEventId}/${a.attempt}`;
}

function firstSubject(payloads: unknown): string | undefined {
  for (const p of payloadsIn(payloads)) {
    const subject = payloadSubjectOf(p);
    if (subject !== undefined) return subject;
  }
  return undefined;
}

/**
 * True when a payload that failed to decode may decode on a later attempt: the codec's error says
 * so with `retriable` (a key not found — a key store not mounted, a wrong key directory — comes
 * back once fixed). Anything else (a key erased, a tampered payload) fails the same way every time.
 */
export function isRetriableDecodeFailure(error: unknown): boolean {
  return (error as { retriable?: unknown } | null)?.retriable === true;
}
