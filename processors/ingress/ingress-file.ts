import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from '../../topics/validation/index.js';
import { parseIngressMappings, type IngressMapping } from './ingress-mapping.js';

/**
 * Reads an ingress file (`--ingress FILE`): JSON with a `mappings` array; `avroSchemaFile` paths
 * are relative to the file.
 * @throws InvalidArgumentError naming the file and what is wrong with it
 */
export function loadIngressFile(path: string): IngressMapping[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError(`the ingress file ${path} cannot be read: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidArgumentError(`the ingress file ${path} is not JSON: ${(error as Error).message}`);
  }
  const readSchema = (schemaPath: string) => JSON.parse(readFileSync(resolve(dirname(path), schemaPath), 'utf8')) as unknown;
  try {
    return parseIngressMappings(parsed, readSchema);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new InvalidArgumentError(`${path}: ${error.message}`);
    throw error;
  }
}
