/**
 * How a branch of a tagged union is named in Avro, so the TypeScript tag (`type`) and the Avro
 * record name map onto each other without a lookup table: the record's short name is the tag
 * plus one of these suffixes (Temporal's naming, e.g. `ActivityTaskScheduledEventAttributes`).
 */
export const unionBranchSuffixes = [
  'EventAttributes',
  'CommandAttributes',
  'SearchAttribute',
  'Request',
  'Message',
] as const;

/**
 * The tag of a union branch record: `logbook.TimerFiredEventAttributes` → `TimerFired`.
 *
 * @returns undefined when the name carries none of {@link unionBranchSuffixes}
 */
export function unionBranchTag(fullName: string): string | undefined {
  const shortName = fullName.slice(fullName.lastIndexOf('.') + 1);
  for (const suffix of unionBranchSuffixes) {
    if (shortName.endsWith(suffix) && shortName.length > suffix.length) {
      return shortName.slice(0, -suffix.length);
    }
  }
  return undefined;
}
