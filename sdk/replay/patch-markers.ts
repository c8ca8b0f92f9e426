/**
 * The SDK's patch markers (`patched` / `deprecatePatch`) as recorded in history, and the search
 * attribute that lists a run's patches. The engine records them like any marker; only the SDK
 * reads them back: on replay a patch marker tells `patched(id)` which path the run took.
 *
 * Marker names: `logbook.*` is reserved for the engine's own markers (see
 * `topics/schemas/history-event/engine-markers.ts`); the SDK's markers are named `sdk.*`.
 * Their details are plain JSON payloads (not the worker's data converter) so that any tool can
 * read a history's patches without the application's codec, as Temporal's `core_patch` does.
 * @module
 */
import { JsonPayloadConverter, type Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { SearchAttributes } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';

/** Name of the marker `patched(id)` / `deprecatePatch(id)` records (Temporal's `core_patch`). */
export const PATCH_MARKER_NAME = 'sdk.patch';

/**
 * KeywordList search attribute upserted with every patch marker: the ids of the patches the run
 * recorded so far (Temporal's `TemporalChangeVersion`). Open runs lacking a patch are those
 * whose value does not include its id.
 */
export const PATCH_SEARCH_ATTRIBUTE = 'LogbookChangeVersion';

/** What a patch marker records. */
export interface PatchMarkerDetails {
  patchId: string;
  /** Recorded by `deprecatePatch`: replay may skip the marker when the code no longer asks for it. */
  deprecated: boolean;
}

const json = new JsonPayloadConverter();

/** The `RecordMarker` command of a patch. */
export function patchMarkerCommand(details: PatchMarkerDetails): WorkflowCommand {
  return {
    type: 'RecordMarker',
    markerName: PATCH_MARKER_NAME,
    details: { patchId: [json.toPayload(details.patchId)!], deprecated: [json.toPayload(details.deprecated)!] },
    header: {},
    failure: null,
  };
}

/** The patch recorded by a marker's details, or null when they are not a patch's. */
export function patchDetailsOf(markerName: string, details: Record<string, Payload[]>): PatchMarkerDetails | null {
  const id = details['patchId']?.[0];
  if (markerName !== PATCH_MARKER_NAME || id === undefined) return null;
  const deprecated = details['deprecated']?.[0];
  return { patchId: String(json.fromPayload(id)), deprecated: deprecated !== undefined && json.fromPayload(deprecated) === true };
}

/** The patch of a `RecordMarker` command or `MarkerRecorded` event, or null for anything else. */
export function patchOf(item: WorkflowCommand | HistoryEvent): PatchMarkerDetails | null {
  const a = 'attributes' in item ? item.attributes : item;
  if (a.type !== 'RecordMarker' && a.type !== 'MarkerRecorded') return null;
  return patchDetailsOf(a.markerName, a.details);
}

/** True for the search attribute upsert that goes with a patch marker. */
export function isPatchUpsert(item: WorkflowCommand | HistoryEvent): boolean {
  const a = 'attributes' in item ? item.attributes : item;
  return a.type === 'UpsertWorkflowSearchAttributes' && PATCH_SEARCH_ATTRIBUTE in a.searchAttributes;
}

/** The patch ids a run's search attributes list (empty for a run that recorded none). */
export function patchIdsOf(searchAttributes: SearchAttributes): string[] {
  const value = searchAttributes[PATCH_SEARCH_ATTRIBUTE];
  return value?.type === 'KeywordList' ? [...value.value] : [];
}
