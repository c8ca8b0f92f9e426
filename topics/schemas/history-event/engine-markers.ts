/**
 * Markers the engine writes into a run's history itself (`MarkerRecorded` with no command behind
 * it). Their names start with {@link ENGINE_MARKER_PREFIX}, which workflow code may not use, so an
 * SDK replaying a history skips them instead of matching them against the workflow's commands.
 * Markers the SDK records through commands (`sdk.patch`, `sdk.side-effect`) are named `sdk.*`.
 * @module
 */

/** Prefix of every engine-written marker name. */
export const ENGINE_MARKER_PREFIX = 'logbook.';

/**
 * Written once per run, after the commands of the first workflow task that completes with the
 * history at or past the warning limits (30,000 events or 10 MiB by default). Its details hold
 * `historyLength`, `historySizeBytes` and the limits, each a JSON payload.
 */
export const HISTORY_LIMIT_WARNING_MARKER = `${ENGINE_MARKER_PREFIX}history-limit-warning`;

/** True for a marker name the engine writes (reserved: workflow code may not record it). */
export function isEngineMarker(markerName: string): boolean {
  return markerName.startsWith(ENGINE_MARKER_PREFIX);
}
