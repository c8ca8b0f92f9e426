import { readFile } from 'node:fs/promises';

/**
 * CPU time of processes, from the kernel's accounting rather than wall clocks: on a shared, noisy
 * machine the CPU a workflow costs is far steadier than the rate it completes at. Linux only
 * (`/proc/<pid>/stat`); elsewhere a process reads as unmeasured.
 */

/** Kernel clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** User plus system CPU time of a process (all its threads) in ms, or `undefined` when it cannot be read. */
export async function processCpuMs(pid: number): Promise<number | undefined> {
  if (pid === process.pid) {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is parenthesised and may hold spaces: count fields after its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** Named processes whose CPU a measurement adds up (the engine, its workers, the broker, the load generator). */
export type CpuRoles = Readonly<Record<string, readonly number[]>>;

/** CPU ms per role at one moment. */
export type CpuSnapshot = Readonly<Record<string, number | undefined>>;

/** Reads every role's CPU time (a role's processes summed; `undefined` when none could be read). */
export async function snapshotCpu(roles: CpuRoles): Promise<CpuSnapshot> {
  const entries = await Promise.all(
    Object.entries(roles).map(async ([role, pids]) => {
      const values = (await Promise.all(pids.map(processCpuMs))).filter((v): v is number => v !== undefined);
      return [role, values.length ? values.reduce((a, b) => a + b, 0) : undefined] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** CPU ms per unit of work between two snapshots, by role and in total (roles that could not be read are left out). */
export function cpuPerUnit(before: CpuSnapshot, after: CpuSnapshot, units: number): Record<string, number> {
  const per: Record<string, number> = {};
  let total = 0;
  for (const [role, end] of Object.entries(after)) {
    const start = before[role];
    if (end === undefined || start === undefined || units <= 0) continue;
    per[role] = round2((end - start) / units);
    total += end - start;
  }
  if (units > 0 && Object.keys(per).length) per.total = round2(total / units);
  return per;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
