import { CodecDataConverter, mapPayloads, payloadsIn, payloadSubjectOf, toPayloadEnvelope, withPayloadSubject, type DataConverter, type Payload, type PayloadCodec } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { HistoryFetcher } from './workflow-worker.js';

/** Runs whose subject is remembered; past this the oldest is forgotten (and then read again from history). */
const REMEMBERED_RUNS = 10_000;

/**
 * The payload codecs of a worker, applied at its boundaries: every payload of the tasks and
 * history it receives is decoded before workflow or activity code sees it, and every payload it
 * sends is encoded. Workflow code never runs a codec.
 *
 * Subjects: an outgoing payload nobody marked (`withSubject`) inherits a subject, so personal data
 * stays under its subject's key — a workflow task's payloads take the subject of the run's start
 * input, an activity's its input's. The subject is read from the payloads' metadata on the way in
 * (an encrypted payload names its subject in clear) and stamped as `logbook-subject` on the way out.
 */
export class WorkerPayloads {
  private readonly codecs: CodecDataConverter;
  /** Subject by run id (workflow tasks) or `<runId>/<scheduledEventId>` (activity attempts). */
  private readonly subjects = new Map<string, string>();

  constructor(codecs: readonly PayloadCodec[], converter?: DataConverter) {
    this.codecs = new CodecDataConverter({ codecs, ...(converter ? { converter } : {}) });
  }

  /** Decodes every payload inside `value` (a task, a history page, query arguments). */
  async decode<T>(value: T): Promise<T> {
    return mapPayloads(value, async (p) => (await this.codecs.decode([p]))[0]!);
  }

  /** Decodes a run's events (a workflow task's, a history page), remembering the subject of its start input. */
  async decodeRunEvents<T>(runId: string, value: T, events: readonly HistoryEvent[]): Promise<T> {
    const started = events.find((e) => e.attributes.type === 'WorkflowExecutionStarted');
    const subject = started?.attributes.type === 'WorkflowExecutionStarted' ? firstSubject(started.attributes.input) : undefined;
    if (subject !== undefined) this.remember(runId, subject);
    return this.decode(value);
  }

  /** Decodes an activity task, remembering the subject of its input for its result (see {@link activitySubject}). */
  async decodeActivityTask<T extends { runId: string; scheduledEventId: number; input: readonly Payload[] }>(task: T): Promise<T> {
    const subject = firstSubject(task.input);
    if (subject !== undefined) this.remember(`${task.runId}/${task.scheduledEventId}`, subject);
    return this.decode(task);
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

  /** The subject of a run's start input, when a task or history page of the run was seen. */
  runSubject(runId: string): string | undefined {
    return this.subjects.get(runId);
  }

  /** The subject of the activity's input, else of its run. */
  activitySubject(runId: string, scheduledEventId: number): string | undefined {
    return this.subjects.get(`${runId}/${scheduledEventId}`) ?? this.subjects.get(runId);
  }

  /** A history fetcher whose pages come decoded (and whose run's start subject is remembered). */
  decodingFetcher(fetcher: HistoryFetcher): HistoryFetcher {
    return {
      fetch: async (run, untilEventId) => {
        const events = await fetcher.fetch(run, untilEventId);
        return this.decodeRunEvents(run.runId, events, events);
      },
    };
  }

  private remember(key: string, subject: string): void {
    this.subjects.delete(key);
    this.subjects.set(key, subject);
    if (this.subjects.size > REMEMBERED_RUNS) this.subjects.delete(this.subjects.keys().next().value!);
  }
}

function firstSubject(payloads: unknown): string | undefined {
  for (const p of payloadsIn(payloads)) {
    const subject = payloadSubjectOf(p);
    if (subject !== undefined) return subject;
  }
  return undefined;
}
