/**
 * The assignment rule of the history consumer group, kept pure so it is tested without a
 * broker and shared by both log implementations: partition p of every input goes to one member;
 * members get ⌊N/M⌋ or ⌈N/M⌉ partitions; a member keeps what it already owned up to its quota,
 * so a membership change moves only the partitions that must move.
 */

/** A member as seen by the group leader: its id and the partitions it owned before this round. */
export interface AssignorMember {
  readonly memberId: string;
  readonly owned: readonly number[];
}

/** Computes the sticky co-partitioned assignment. Deterministic for the same input. */
export function assignCoPartitioned(members: readonly AssignorMember[], partitionCount: number): Map<string, number[]> {
  const result = new Map<string, number[]>();
  if (members.length === 0) return result;
  const sorted = [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  const validOwned = (m: AssignorMember) => m.owned.filter((p) => Number.isInteger(p) && p >= 0 && p < partitionCount);
  // Members that owned the most receive the larger quotas first: fewer partitions move.
  const byOwned = [...sorted].sort((a, b) => validOwned(b).length - validOwned(a).length);
  const base = Math.floor(partitionCount / sorted.length);
  const extra = partitionCount % sorted.length;
  const quota = new Map<string, number>();
  byOwned.forEach((m, i) => quota.set(m.memberId, base + (i < extra ? 1 : 0)));

  const taken = new Set<number>();
  for (const m of byOwned) {
    const kept: number[] = [];
    for (const p of [...validOwned(m)].sort((a, b) => a - b)) {
      if (kept.length >= quota.get(m.memberId)! || taken.has(p)) continue;
      kept.push(p);
      taken.add(p);
    }
    result.set(m.memberId, kept);
  }
  const free: number[] = [];
  for (let p = 0; p < partitionCount; p++) if (!taken.has(p)) free.push(p);
  for (const m of sorted) {
    const mine = result.get(m.memberId)!;
    while (mine.length < quota.get(m.memberId)! && free.length > 0) mine.push(free.shift()!);
    mine.sort((a, b) => a - b);
  }
  return result;
}
