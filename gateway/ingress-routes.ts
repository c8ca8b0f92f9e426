import { Router } from 'express';
import { checkMappings } from '../processors/ingress/ingress.js';
import type { IngressMapping } from '../processors/ingress/ingress-mapping.js';
import { parseApiMapping, type StoredIngressMapping } from '../processors/ingress/ingress-registry.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';
import { Allow } from './auth/route-rules.js';

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

  router.get('/api/v1/ingress', Allow.deploymentReader, async (_req, res) => {
    await registry.catchUp();
    const running = new Set(engine.ingress.sources.map((s) => s.mapping.name));
    const state = (name: string) => {
      const lastError = engine.ingress.lastError(name);
      return { running: running.has(name), ...(lastError === undefined ? {} : { lastError }) };
    };
    const file = engine.ingressFileMappings.map((mapping) => ({ ...mappingView(mapping, 'file'), ...state(mapping.name) }));
    const api = registry.list().filter((s) => !fromFile(s.mapping.name)).map((stored) => ({ ...mappingView(stored.mapping, 'api'), ...state(stored.mapping.name), ...storedView(stored) }));
    res.json({ mappings: [...file, ...api].sort((a, b) => a.name.localeCompare(b.name)) });
  });

  router.put('/api/v1/ingress/:name', Allow.deploymentAdmin, async (req, res) => {
    const name = String(req.params.name);
    const body = req.body as unknown;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'INVALID_ARGUMENT', 'the body must be one ingress mapping as a JSON object (the options of a mapping in an ingress file)');
    // Every node keeps every mapping in memory: a definition is small, and so is their number.
    const size = Buffer.byteLength(JSON.stringify(body));
    if (size > MAX_DEFINITION_BYTES) throw new HttpError(400, 'INVALID_ARGUMENT', `an ingress mapping may hold at most ${MAX_DEFINITION_BYTES / 1024} KiB of JSON (its Avro schema included); this one holds ${Math.ceil(size / 1024)} KiB`);
    await registry.catchUp();
    if (!registry.get(name) && registry.list().length >= MAX_API_MAPPINGS) throw new HttpError(409, 'LimitExceeded', `at most ${MAX_API_MAPPINGS} ingress mappings can be created through the API; delete one first`);
    const definition = { ...(body as Record<string, unknown>) };
    if (definition.name !== undefined && definition.name !== name) throw new HttpError(400, 'INVALID_ARGUMENT', `the body names mapping '${String(definition.name)}' but the path names '${name}'`);
    definition.name = name;
    refuseFileMapping(name);
    const mapping = parseApiMapping(definition);
    await checkMappings(engine, [mapping]);
    const { stored, created } = await registry.put(definition);
    res.status(created ? 201 : 200).json({ ...mappingView(stored.mapping, 'api'), ...storedView(stored) });
  });

  router.delete('/api/v1/ingress/:name', Allow.deploymentAdmin, async (req, res) => {
    const name = String(req.params.name);
    refuseFileMapping(name);
    await registry.delete(name);
    res.status(204).end();
  });
  return router;
}

/** Largest JSON definition of one mapping the API takes. */
const MAX_DEFINITION_BYTES = 256 * 1024;
/** Most mappings the API keeps. */
const MAX_API_MAPPINGS = 200;

function mappingView(mapping: IngressMapping, origin: 'file' | 'api') {
  return { name: mapping.name, origin, sourceTopic: mapping.sourceTopic, format: mapping.format, action: mapping.action, namespace: mapping.namespace };
}

function storedView(stored: StoredIngressMapping) {
  const definition = { ...stored.definition };
  // Credentials written into a registry URL are not shown back.
  if (typeof definition.schemaRegistry === 'string') definition.schemaRegistry = withoutCredentials(definition.schemaRegistry);
  return { definition, updatedTime: new Date(stored.updatedTime).toISOString() };
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
