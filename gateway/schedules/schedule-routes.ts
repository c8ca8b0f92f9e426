/**
 * The schedule routes (`/api/v1/namespaces/{ns}/schedules…`): create, list, describe, pause,
 * unpause, trigger, backfill, update and delete. Mount before the 404 handler.
 * @module
 */
import { Router, type Request } from 'express';
import type { Engine } from '../engine.js';
import { requireString } from '../http-errors.js';
import { toJsonView } from '../json-views.js';
import { ScheduleService } from './schedule-service.js';
import { Allow } from '../auth/route-rules.js';

const SCHEDULES = '/api/v1/namespaces/:namespace/schedules';
const SCHEDULE = `${SCHEDULES}/:scheduleId`;

/** Routes of Temporal's Schedules API over the engine's scheduler workflows. */
export function scheduleRoutes(engine: Engine): Router {
  const router = Router();
  const schedules = new ScheduleService(engine);

  router.post(SCHEDULES, Allow.writer, async (req, res) => {
    res.status(201).json(await schedules.create(namespaceOf(req), req.body ?? null));
  });
  router.get(SCHEDULES, Allow.reader, async (req, res) => {
    res.json({ schedules: await schedules.list(namespaceOf(req)) });
  });
  router.get(SCHEDULE, Allow.reader, async (req, res) => {
    const { namespace, scheduleId } = idsOf(req);
    res.json(toJsonView(await schedules.describe(namespace, scheduleId), engine.dataConverter));
  });
  router.put(SCHEDULE, Allow.writer, async (req, res) => {
    const { namespace, scheduleId } = idsOf(req);
    await schedules.update(namespace, scheduleId, req.body ?? null);
    res.json({ scheduleId, updated: true });
  });
  router.delete(SCHEDULE, Allow.writer, async (req, res) => {
    const { namespace, scheduleId } = idsOf(req);
    await schedules.delete(namespace, scheduleId);
    res.json({ scheduleId, deleted: true });
  });
  router.post(`${SCHEDULE}/pause`, Allow.writer, async (req, res) => {
    const { namespace, scheduleId } = idsOf(req);
    await schedules.pause(namespace, scheduleId, bodyField(req, 'note'));
    res.status(202).json({ scheduleId, paused: true });
  });
  router.post(`${SCHEDULE}/unpause`, Allow.writer, async (req, res) => {
    const { namespace, scheduleId } = idsOf(req);
    await schedules.unpause(namespace, scheduleId, bodyField(req, 'note'));
    res.status(202).json({ scheduleId, paused: false });
  });
  router.post(`${SCHEDULE}/trigger`, Allow.writer, async (req, res) => {
    const { namespace, scheduleId } = idsOf(req);
    await schedules.trigger(namespace, scheduleId, bodyField(req, 'overlap'));
    res.status(202).json({ scheduleId, triggered: true });
  });
  router.post(`${SCHEDULE}/backfill`, Allow.writer, async (req, res) => {
    const { namespace, scheduleId } = idsOf(req);
    await schedules.backfill(namespace, scheduleId, req.body ?? null);
    res.status(202).json({ scheduleId, backfilled: true });
  });
  return router;
}

function namespaceOf(req: Request): string {
  return requireString(req.params.namespace, 'namespace');
}

function idsOf(req: Request): { namespace: string; scheduleId: string } {
  return { namespace: namespaceOf(req), scheduleId: requireString(req.params.scheduleId, 'scheduleId') };
}

function bodyField(req: Request, name: string): unknown {
  const body = req.body as Record<string, unknown> | undefined;
  return body && typeof body === 'object' ? body[name] : undefined;
}
