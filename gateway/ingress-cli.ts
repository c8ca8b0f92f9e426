import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = 'usage: logbook ingress list | put FILE | delete NAME  [--address http://127.0.0.1:8233]';

/**
 * `ingress list | put FILE | delete NAME`: the ingress API from the command line. `put` takes a
 * file holding one mapping or an ingress file (`{"mappings": […]}`), and sends each mapping with
 * its `avroSchemaFile` read and inlined as `avroSchema`.
 * @returns the exit code: 0 done, 1 refused by the gateway or unreachable, 2 usage
 */
export async function ingressCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { address: { type: 'string', default: process.env.LOGBOOK_ADDRESS ?? 'http://127.0.0.1:8233' } } });
  const [verb, argument, ...extra] = positionals;
  const api = `${values.address!.replace(/\/$/, '')}/api/v1/ingress`;
  if (verb === 'list' && argument === undefined) return list(api);
  if (verb === 'put' && argument !== undefined && extra.length === 0) return put(api, argument);
  if (verb === 'delete' && argument !== undefined && extra.length === 0) return remove(api, argument);
  console.error(USAGE);
  return 2;
}

async function call(method: string, url: string, body?: unknown): Promise<{ ok: boolean; status: number; json: Record<string, unknown> | undefined }> {
  let response: Response;
  try {
    response = await fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch (error) {
    throw new Error(`no gateway answers at ${new URL(url).origin} (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}); start one with \`npm start\` or pass --address`);
  }
  const text = await response.text();
  return { ok: response.ok, status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

async function list(api: string): Promise<number> {
  const { ok, json } = await call('GET', api);
  if (!ok) return refused(json);
  const mappings = (json?.mappings ?? []) as Array<{ name: string; origin: string; running: boolean; sourceTopic: string; action: string; namespace: string }>;
  if (mappings.length === 0) console.log('no ingress mappings');
  for (const m of mappings) console.log(`${m.name}\t${m.origin}\t${m.running ? 'running' : 'not running'}\t${m.sourceTopic} → ${m.action} in ${m.namespace}`);
  return 0;
}

async function put(api: string, file: string): Promise<number> {
  const path = resolve(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`${file} cannot be read as JSON: ${(error as Error).message}`);
    return 1;
  }
  const entries = parsed !== null && typeof parsed === 'object' && Array.isArray((parsed as { mappings?: unknown }).mappings) ? (parsed as { mappings: unknown[] }).mappings : [parsed];
  for (const [i, entry] of entries.entries()) {
    if (entry === null || typeof entry !== 'object' || typeof (entry as { name?: unknown }).name !== 'string') {
      console.error(`${file}: mapping ${i} needs a "name"`);
      return 1;
    }
    const { avroSchemaFile, ...definition } = entry as Record<string, unknown>;
    if (typeof avroSchemaFile === 'string') {
      try {
        definition.avroSchema = JSON.parse(readFileSync(resolve(dirname(path), avroSchemaFile), 'utf8'));
      } catch (error) {
        console.error(`${file}: avroSchemaFile ${avroSchemaFile} cannot be read as JSON: ${(error as Error).message}`);
        return 1;
      }
    }
    const name = definition.name as string;
    const { ok, status, json } = await call('PUT', `${api}/${encodeURIComponent(name)}`, definition);
    if (!ok) return refused(json);
    console.log(`${status === 201 ? 'created' : 'replaced'} ingress mapping ${name}: ${String(json?.sourceTopic)} → ${String(json?.action)} in ${String(json?.namespace)}`);
  }
  return 0;
}

async function remove(api: string, name: string): Promise<number> {
  const { ok, json } = await call('DELETE', `${api}/${encodeURIComponent(name)}`);
  if (!ok) return refused(json);
  console.log(`deleted ingress mapping ${name}`);
  return 0;
}

function refused(json: Record<string, unknown> | undefined): number {
  console.error(`refused: ${String(json?.message ?? 'no reason given')}${json?.code ? ` (${String(json.code)})` : ''}`);
  return 1;
}
