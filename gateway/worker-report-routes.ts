import { Router } from 'express';
import { identifierProblem } from '../topics/validation/index.js';
import { MAX_REPORT_SAMPLES, type ActivitySample, type WorkerReport, type WorkflowTaskSample } from '../topics/wire/worker-report.js';
import { HttpError } from './http-errors.js';
import { Allow } from './auth/route-rules.js';

const TASK_RESULTS: ReadonlySet<string> = new Set(['completed', 'failed']);
const ACTIVITY_OUTCOMES: ReadonlySet<string> = new Set(['completed', 'failed', 'canceled', 'superseded', 'async']);
/** A day: no sample of a task or attempt is longer (its timeouts are). */
const MAX_SAMPLE_MS = 86_400_000;

/**
 * `POST /api/v1/worker-reports`: what worker processes measure (replay time, cache hits, activity
 * run time), added to this node's /metrics by `record`. Every field is checked — the values become
 * label values and observations — and a report breaking a rule is a 400 naming it.
 */
export function workerReportRoutes(record: ((report: WorkerReport) => void) | undefined): Router {
  const router = Router();
  router.post('/api/v1/worker-reports', Allow.signedIn, (req, res) => {
    const report = reportOf(req.body);
    record?.(report);
    res.status(202).json({ accepted: report.workflowTasks.length + report.activities.length });
  });
  return router;
}

function reportOf(body: unknown): WorkerReport {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('the body must be a worker report object');
  const b = body as Record<string, unknown>;
  for (const field of ['identity', 'namespace', 'taskQueue'] as const) {
    const problem = identifierProblem(b[field], field);
    if (problem) throw invalid(problem);
  }
  const workflowTasks = samples(b.workflowTasks, 'workflowTasks', (s, at): WorkflowTaskSample => {
    if (typeof s.cacheHit !== 'boolean') throw invalid(`${at}.cacheHit must be true or false`);
    if (typeof s.result !== 'string' || !TASK_RESULTS.has(s.result)) throw invalid(`${at}.result must be one of ${[...TASK_RESULTS].join(', ')}`);
    return { cacheHit: s.cacheHit, result: s.result, replayMs: millis(s.replayMs, `${at}.replayMs`) };
  });
  const activities = samples(b.activities, 'activities', (s, at): ActivitySample => {
    const typeProblem = identifierProblem(s.activityType, `${at}.activityType`);
    if (typeProblem) throw invalid(typeProblem);
    if (typeof s.outcome !== 'string' || !ACTIVITY_OUTCOMES.has(s.outcome)) throw invalid(`${at}.outcome must be one of ${[...ACTIVITY_OUTCOMES].join(', ')}`);
    if (!Number.isSafeInteger(s.attempt) || (s.attempt as number) < 1) throw invalid(`${at}.attempt must be a whole number ≥ 1`);
    return { activityType: s.activityType as string, outcome: s.outcome, attempt: s.attempt as number, durationMs: millis(s.durationMs, `${at}.durationMs`), scheduleToStartMs: millis(s.scheduleToStartMs, `${at}.scheduleToStartMs`) };
  });
  return { identity: b.identity as string, namespace: b.namespace as string, taskQueue: b.taskQueue as string, workflowTasks, activities };
}

function samples<T>(value: unknown, field: string, read: (sample: Record<string, unknown>, at: string) => T): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(`${field} must be an array`);
  if (value.length > MAX_REPORT_SAMPLES) throw invalid(`${field} has ${value.length} samples; a report carries at most ${MAX_REPORT_SAMPLES}`);
  return value.map((s, i) => {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) throw invalid(`${field}[${i}] must be an object`);
    return read(s as Record<string, unknown>, `${field}[${i}]`);
  });
}

/**
 * A duration in ms; a finite value out of range is clamped (a worker's clock a little behind the
 * engine's gives a negative schedule-to-start; one sample must not cost the report).
 */
function millis(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${at} must be a number of milliseconds`);
  return Math.min(MAX_SAMPLE_MS, Math.max(0, value));
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_ARGUMENT', message);
}
