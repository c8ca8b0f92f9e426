/**
 * Namespaces as data: the built-in `default` namespace, validation of registrations and updates,
 * and what the registry means for the history state machine (per-namespace limits and retention).
 * Pure: callers pass the time.
 * @module
 */
import { LogbookError } from '../../topics/errors.js';
import { namespaceHistoryLimitNames, type Namespace, type NamespaceHistoryLimits, type NamespaceState } from '../../topics/schemas/namespace/index.js';
import { namespaceProblem, taskQueueProblem } from '../../topics/validation/index.js';
import { DEFAULT_RETENTION_MS, type HistoryConfig, type HistoryLimits, type NamespaceGuards } from '../history/index.js';
import { distinctNames, guardListProblem, type GuardListName } from './namespace-guard-rules.js';

/** The namespace that always exists, registered or not (Temporal's `default`). */
export const DEFAULT_NAMESPACE = 'default';

/** Longest retention accepted (Temporal caps it too): 10 years. */
const MAX_RETENTION_MS = 3_650 * 86_400_000;

/** A register or update call the registry refuses: 400 with the field named. */
export class InvalidNamespaceError extends LogbookError {
  constructor(message: string) {
    super('INVALID_ARGUMENT', message);
  }
}

/** What a register or update call may set; absent fields keep their value, `null` clears a rate or limit. */
export interface NamespaceChanges {
  readonly description?: string;
  readonly ownerEmail?: string;
  readonly state?: NamespaceState;
  readonly retentionMs?: number;
  readonly historyLimits?: Partial<Record<keyof NamespaceHistoryLimits, number | null>>;
  readonly startsPerSecond?: number | null;
  readonly apiCallsPerSecond?: number | null;
  /** Per task queue; `null` removes the queue's rate. */
  readonly taskQueueActivitiesPerSecond?: Readonly<Record<string, number | null>>;
  /** Replaces the list of task queues whose payloads must be encrypted (`[]` clears it; `'*'`: every queue). */
  readonly codecRequiredTaskQueues?: readonly string[];
  /** Replaces the list of refused search attribute names (`[]` clears it). */
  readonly refusedSearchAttributes?: readonly string[];
}

const noHistoryLimits = (): NamespaceHistoryLimits =>
  Object.fromEntries(namespaceHistoryLimitNames.map((n) => [n, null])) as unknown as NamespaceHistoryLimits;

/** A namespace with every setting at its default (no rates, the engine's limits, 72 h retention). */
export function blankNamespace(name: string, now: number): Namespace {
  return {
    name,
    description: '',
    ownerEmail: '',
    state: 'Registered',
    retentionMs: DEFAULT_RETENTION_MS,
    historyLimits: noHistoryLimits(),
    startsPerSecond: null,
    apiCallsPerSecond: null,
    taskQueueActivitiesPerSecond: {},
    registerTime: now,
    updateTime: now,
    codecRequiredTaskQueues: [],
    refusedSearchAttributes: [],
  };
}

/** The built-in `default` namespace, as it is until someone updates it. */
export const builtInDefaultNamespace: Namespace = Object.freeze({ ...blankNamespace(DEFAULT_NAMESPACE, 0), description: 'the default namespace' });

/**
 * Checks a namespace name against the shared rule (`topics/validation/name-rules.ts`: it is part of task topic names).
 * @throws InvalidNamespaceError naming the rule
 */
export function checkNamespaceName(name: unknown): string {
  const problem = namespaceProblem(name, 'name');
  if (problem !== null) throw new InvalidNamespaceError(problem);
  return name as string;
}

function rate(value: number | null, what: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new InvalidNamespaceError(`'${what}' must be a positive number per second or null, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * The namespace after `changes`, validated.
 * @throws InvalidNamespaceError for a value out of range or of the wrong type
 */
export function applyNamespaceChanges(current: Namespace, changes: NamespaceChanges, now: number): Namespace {
  const next: Namespace = { ...current, historyLimits: { ...current.historyLimits }, taskQueueActivitiesPerSecond: { ...current.taskQueueActivitiesPerSecond }, updateTime: now };
  for (const key of ['description', 'ownerEmail'] as const) {
    const value = changes[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 1_000) throw new InvalidNamespaceError(`'${key}' must be a string of at most 1000 characters`);
    next[key] = value;
  }
  if (changes.state !== undefined) {
    if (changes.state !== 'Registered' && changes.state !== 'Deprecated') throw new InvalidNamespaceError(`'state' must be 'Registered' or 'Deprecated', got ${JSON.stringify(changes.state)}`);
    next.state = changes.state;
  }
  if (changes.retentionMs !== undefined) {
    const ms = changes.retentionMs;
    if (!Number.isInteger(ms) || ms < 1_000 || ms > MAX_RETENTION_MS) throw new InvalidNamespaceError(`'retention' must be from 1s to 3650d, got ${ms} ms`);
    next.retentionMs = ms;
  }
  if (changes.startsPerSecond !== undefined) next.startsPerSecond = rate(changes.startsPerSecond, 'startsPerSecond');
  if (changes.apiCallsPerSecond !== undefined) next.apiCallsPerSecond = rate(changes.apiCallsPerSecond, 'apiCallsPerSecond');
  for (const [name, value] of Object.entries(changes.historyLimits ?? {})) {
    if (!(namespaceHistoryLimitNames as readonly string[]).includes(name)) {
      throw new InvalidNamespaceError(`unknown history limit '${name}' (known: ${namespaceHistoryLimitNames.join(', ')})`);
    }
    if (value !== null && (!Number.isInteger(value) || value < 1)) throw new InvalidNamespaceError(`history limit '${name}' must be a positive integer or null, got ${JSON.stringify(value)}`);
    next.historyLimits[name as keyof NamespaceHistoryLimits] = value;
  }
  for (const [queue, value] of Object.entries(changes.taskQueueActivitiesPerSecond ?? {})) {
    const invalidQueue = taskQueueProblem(queue, 'task queue');
    if (invalidQueue !== null) throw new InvalidNamespaceError(`'taskQueueActivitiesPerSecond': ${invalidQueue}`);
    const perSecond = rate(value, `taskQueueActivitiesPerSecond.${queue}`);
    if (perSecond === null) delete next.taskQueueActivitiesPerSecond[queue];
    else next.taskQueueActivitiesPerSecond[queue] = perSecond;
  }
  for (const list of ['codecRequiredTaskQueues', 'refusedSearchAttributes'] as const satisfies readonly GuardListName[]) {
    const names = changes[list];
    if (names === undefined) continue;
    const problem = guardListProblem(list, names);
    if (problem) throw new InvalidNamespaceError(problem);
    next[list] = distinctNames(names);
  }
  return next;
}

/** The history limits a namespace sets (the others keep the engine's defaults). */
export function historyLimitsOf(namespace: Namespace): Partial<HistoryLimits> {
  return Object.fromEntries(Object.entries(namespace.historyLimits).filter(([, v]) => v !== null)) as Partial<HistoryLimits>;
}

/**
 * The history settings with the registry's namespaces over `base`: each namespace's history
 * limits over the limits `base` gives it, its retention, and its payload guards.
 */
export function historyConfigWith(base: HistoryConfig, namespaces: Iterable<Namespace>): HistoryConfig {
  const namespaceLimits: Record<string, Partial<HistoryLimits>> = { ...base.namespaceLimits };
  const namespaceRetentionMs: Record<string, number> = { ...base.namespaceRetentionMs };
  const namespaceGuards: Record<string, NamespaceGuards> = { ...base.namespaceGuards };
  for (const ns of namespaces) {
    namespaceLimits[ns.name] = { ...namespaceLimits[ns.name], ...historyLimitsOf(ns) };
    namespaceRetentionMs[ns.name] = ns.retentionMs;
    namespaceGuards[ns.name] = { codecRequiredTaskQueues: ns.codecRequiredTaskQueues, refusedSearchAttributes: ns.refusedSearchAttributes };
  }
  return { ...base, namespaceLimits, namespaceRetentionMs, namespaceGuards };
}
