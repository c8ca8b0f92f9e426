import { Router } from 'express';
import { checkMappings } from '../processors/ingress/ingress.js';
import type { IngressMapping } from '../processors/ingress/ingress-mapping.js';
import { parseApiMapping, type StoredIngressMapping } from '../processors/ingress/ingress-registry.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';

/**
 * The ingress API: list the mappings a node runs, create or replace one (`PUT`), delete one. A
 * mapping is checked by the rules of the ingress file, and against the cluster (its source topic
 * must exist) before it is stored; every node then runs it within a second. Mappings of a node's
 * ingress file are listed too, and cannot be changed here.
 */
export function ingressRoutes(engine: Engine): Router {
  const router = Router();
  const registry = engine.ingressRegistry;
  const fromFile = (name: string) => engine.ingressFileMappings.some((m) => m.name === name);
  const refuseFileMapping = (name: string) => {
    if (fromFile(name)) throw new HttpError(409, 'IngressMappingFromFile', `ingress mapping '${name}' comes from the node's ingress file (--ingress); change it there, or choose another name`);
  };

  router.get('/api/v1/ingress', async (_req, res) => {
    await registry.catchUp();
    const running = new Set(engine.ingress.sources.map((s) => s.mapping.name));
    const file = engine.ingressFileMappings.map((mapping) => mappingView(mapping, 'file', running.has(mapping.name)));
    const api = registry.list().filter((s) => !fromFile(s.mapping.name)).map((stored) => ({ ...mappingView(stored.mapping, 'api', running.has(stored.mapping.name)), ...storedView(stored) }));
    res.json({ mappings: [...file, ...api].sort((a, b) => a.name.localeCompare(b.name)) });
  });

  router.put('/api/v1/ingress/:name', async (req, res) => {
    const name = String(req.params.name);
    const body = req.body as unknown;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'INVALID_ARGUMENT', 'the body must be one ingress mapping as a JSON object (the options of a mapping in an ingress file)');
    const definition = { ...(body as Record<string, unknown>) };
    if (definition.name !== undefined && definition.name !== name) throw new HttpError(400, 'INVALID_ARGUMENT', `the body names mapping '${String(definition.name)}' but the path names '${name}'`);
    definition.name = name;
    refuseFileMapping(name);
    const mapping = parseApiMapping(definition);
    await checkMappings(engine, [mapping]);
    const { stored, created } = await registry.put(definition);
    res.status(created ? 201 : 200).json({ ...mappingView(stored.mapping, 'api', false), ...storedView(stored) });
  });

  router.delete('/api/v1/ingress/:name', async (req, res) => {
    const name = String(req.params.name);
    refuseFileMapping(name);
    await registry.delete(name);
    res.status(204).end();
  });
  return router;
}

function mappingView(mapping: IngressMapping, origin: 'file' | 'api', running: boolean) {
  return { name: mapping.name, origin, running, sourceTopic: mapping.sourceTopic, format: mapping.format, action: mapping.action, namespace: mapping.namespace };
}

function storedView(stored: StoredIngressMapping) {
  return { definition: stored.definition, updatedTime: new Date(stored.updatedTime).toISOString() };
}
