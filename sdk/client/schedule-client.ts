/**
 * The schedule client, as Temporal users know it (`client.schedule`): create a schedule, list the
 * namespace's schedules, and a handle to describe, pause, unpause, trigger, backfill, update and
 * delete one — over the gateway's HTTP API.
 * @module
 */
import type { Duration } from '../workflow/duration.js';
import type { OverlapPolicy } from '../schedules/schedule-definition.js';
import type { ScheduleDescription } from '../schedules/scheduler-protocol.js';
import { gatewayCall } from './gateway-call.js';
import { accessOf, type GatewayAccess, type GatewayClientOptions } from '../common/gateway-access.js';

/** An instant: a Date, epoch milliseconds or an RFC 3339 string. */
export type Instant = Date | number | string;

/** When a schedule acts: the union of its intervals and cron expressions (in UTC unless `timeZone` or a `CRON_TZ=` prefix says otherwise). */
export interface ScheduleSpecOptions {
  /** Every `every`, at `offset` past each multiple of it since the Unix epoch. */
  readonly intervals?: ReadonlyArray<{ every: Duration; offset?: Duration }>;
  /** Cron expressions: 5 fields (or 6 with leading seconds), `@daily`, `@every 90s`, … */
  readonly cronExpressions?: readonly string[];
  /** The IANA time zone of the cron expressions (Temporal's `timezone`), e.g. `'Europe/Paris'`; daylight saving is followed. */
  readonly timeZone?: string;
  readonly startAt?: Instant;
  readonly endAt?: Instant;
  /** Delays each action by a pseudo-random amount below this. */
  readonly jitter?: Duration;
}

/** The workflow each action starts; its id is `<workflowId>-<scheduled time>` (default workflowId: the schedule id). */
export interface ScheduleActionOptions {
  readonly workflowType: string;
  readonly taskQueue: string;
  readonly workflowId?: string;
  readonly args?: readonly unknown[];
  readonly workflowExecutionTimeout?: Duration;
  readonly workflowRunTimeout?: Duration;
  readonly workflowTaskTimeout?: Duration;
  readonly memo?: Record<string, unknown>;
}

/** A schedule's definition as the client gives it. */
export interface ScheduleDefinitionOptions {
  readonly spec: ScheduleSpecOptions;
  readonly action: ScheduleActionOptions;
  /** Overlap (default SKIP) and catch-up window (default 1 year, at least 10 s). */
  readonly policies?: { overlap?: OverlapPolicy; catchupWindow?: Duration };
  /** Start paused (with a note), or limited to `remainingActions` scheduled actions. */
  readonly state?: { paused?: boolean; note?: string; remainingActions?: number };
}

/** Options of {@link ScheduleClient.create}. */
export interface ScheduleOptions extends ScheduleDefinitionOptions {
  readonly scheduleId: string;
}

/** A schedule as {@link ScheduleClient.list} returns it. */
export interface ScheduleListEntry {
  readonly scheduleId: string;
  readonly workflowType: string | null;
  readonly createdAt: string;
}

/** A backfill range: every action time of the spec from `startAt` to `endAt`, both included. */
export interface BackfillOptions {
  readonly startAt: Instant;
  readonly endAt: Instant;
  /** Default: the schedule's overlap policy. */
  readonly overlap?: OverlapPolicy;
}

/** A handle on one schedule. Calls on an unknown or deleted schedule fail with 404 `ScheduleNotFound`. */
export interface ScheduleHandle {
  readonly scheduleId: string;
  describe(): Promise<ScheduleDescription>;
  pause(note?: string): Promise<void>;
  unpause(note?: string): Promise<void>;
  /** Takes an action now (default overlap: the schedule's). */
  trigger(overlap?: OverlapPolicy): Promise<void>;
  backfill(...ranges: BackfillOptions[]): Promise<void>;
  /** Replaces spec, action and policies; the state is kept unless given. */
  update(definition: ScheduleDefinitionOptions): Promise<void>;
  delete(): Promise<void>;
}

/**
 * Creates and manages schedules through the gateway.
 *
 * @example
 * const schedules = new ScheduleClient({ address: 'http://127.0.0.1:8233' });
 * const handle = await schedules.create({
 *   scheduleId: 'nightly-report',
 *   spec: { cronExpressions: ['0 2 * * *'] },
 *   action: { workflowType: 'report', taskQueue: 'reports', args: ['eu'] },
 *   policies: { overlap: 'BUFFER_ONE' },
 * });
 * await handle.trigger();
 * const { info } = await handle.describe();   // info.nextActionTimes, info.recentActions, …
 */
export class ScheduleClient {
  private readonly base: string;
  private readonly access: GatewayAccess;

  /** `apiKey` and `metadata` go with every call (or the `access` of a connection). */
  constructor(options: GatewayClientOptions & { namespace?: string } = {}) {
    this.access = accessOf(options);
    this.base = `${this.access.baseUrl}/api/v1/namespaces/${encodeURIComponent(options.namespace ?? 'default')}/schedules`;
  }

  /** Creates a schedule; fails with 409 `ScheduleAlreadyRunning` if the id is taken, 400 `INVALID_SCHEDULE` naming a bad field. */
  async create(options: ScheduleOptions): Promise<ScheduleHandle> {
    await this.call('POST', '', wireDefinition(options));
    return this.getHandle(options.scheduleId);
  }

  /** The namespace's schedules. */
  async list(): Promise<ScheduleListEntry[]> {
    return (await this.call<{ schedules: ScheduleListEntry[] }>('GET', '')).schedules;
  }

  /** A handle on an existing schedule (not checked until used). */
  getHandle(scheduleId: string): ScheduleHandle {
    const path = `/${encodeURIComponent(scheduleId)}`;
    return {
      scheduleId,
      describe: () => this.call('GET', path),
      pause: async (note) => void (await this.call('POST', `${path}/pause`, { note })),
      unpause: async (note) => void (await this.call('POST', `${path}/unpause`, { note })),
      trigger: async (overlap) => void (await this.call('POST', `${path}/trigger`, { overlap })),
      backfill: async (...ranges) =>
        void (await this.call('POST', `${path}/backfill`, { backfills: ranges.map((r) => ({ ...r, startAt: instant(r.startAt), endAt: instant(r.endAt) })) })),
      update: async (definition) => void (await this.call('PUT', path, wireDefinition(definition))),
      delete: async () => void (await this.call('DELETE', path)),
    };
  }

  private call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return gatewayCall<T>(method, `${this.base}${path}`, body, this.access);
  }
}

function instant(value: Instant): number | string {
  return value instanceof Date ? value.getTime() : value;
}

function wireDefinition<T extends ScheduleDefinitionOptions>(options: T): T {
  const spec = options.spec;
  return {
    ...options,
    spec: {
      ...spec,
      ...(spec.startAt !== undefined ? { startAt: instant(spec.startAt) } : {}),
      ...(spec.endAt !== undefined ? { endAt: instant(spec.endAt) } : {}),
    },
  };
}
