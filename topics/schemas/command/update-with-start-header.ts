/**
 * How a StartWorkflowExecution command carries an update (update-with-start): Command v1 has no
 * update-with-start body, so the update travels as JSON in one header entry, which the engine
 * removes before it records the start. Clients write it; the engine reads it.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import type { UpdateWorkflowExecutionLifecycleStage } from '../common/v1-enums.js';
import type { UpdateRequest } from '../common/v1-records.js';

/** Header key of the start request that carries the update (JSON, see {@link encodeUpdateWithStart}). */
export const UPDATE_WITH_START_HEADER = 'logbook.update-with-start';

/** The update an update-with-start delivers. */
export interface EmbeddedUpdate {
  request: UpdateRequest;
  waitForStage: UpdateWorkflowExecutionLifecycleStage;
}

type PayloadJson = { metadata: Record<string, string>; data: string };
type EmbeddedJson = Omit<UpdateRequest, 'header' | 'args'> & { waitForStage: UpdateWorkflowExecutionLifecycleStage; args: PayloadJson[] };

/** The header entry that turns a start request into an update-with-start. */
export function encodeUpdateWithStart(update: EmbeddedUpdate): Payload {
  const { updateId, identity, name } = update.request;
  const args = update.request.args.map((p) => ({
    metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, v.toString('base64')])), data: p.data.toString('base64'),
  }));
  const json: EmbeddedJson = { updateId, identity, name, waitForStage: update.waitForStage, args };
  return { metadata: {}, data: Buffer.from(JSON.stringify(json), 'utf8') };
}

/** The update a header entry carries, or null when the entry is malformed. */
export function decodeUpdateWithStart(payload: Payload): EmbeddedUpdate | null {
  try {
    const json = JSON.parse(payload.data.toString('utf8')) as EmbeddedJson;
    const args = json.args.map((p) => ({
      metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])), data: Buffer.from(p.data, 'base64'),
    }));
    if (typeof json.updateId !== 'string' || typeof json.name !== 'string' || (json.waitForStage !== 'Accepted' && json.waitForStage !== 'Completed')) return null;
    return { request: { updateId: json.updateId, identity: String(json.identity ?? ''), name: json.name, header: {}, args }, waitForStage: json.waitForStage };
  } catch {
    return null;
  }
}
