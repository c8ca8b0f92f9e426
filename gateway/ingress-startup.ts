import { Ingress, type IngressContext } from '../processors/ingress/ingress.js';
import type { IngressMapping } from '../processors/ingress/ingress-mapping.js';
import { IngressRegistry } from '../processors/ingress/ingress-registry.js';
import type { TopicCatalog } from '../topics/catalog.js';
import type { Log } from '../topics/log/log.js';

/**
 * Starts a node's ingress: the mappings of its file at once (a file mapping that cannot start
 * stops the node), then those created through the API, followed as the registry changes. A file
 * mapping keeps its name: an API mapping of the same name is not run here.
 */
export async function startIngress(log: Log, catalog: TopicCatalog, fileMappings: readonly IngressMapping[], context: IngressContext): Promise<{ ingress: Ingress; registry: IngressRegistry }> {
  const registry = await IngressRegistry.open(log, catalog);
  let ingress: Ingress;
  try {
    ingress = await Ingress.start(context, fileMappings);
  } catch (error) {
    await registry.close();
    throw error;
  }
  const fileNames = new Set(fileMappings.map((m) => m.name));
  const follow = () => void ingress.apply([...fileMappings, ...registry.list().map((s) => s.mapping).filter((m) => !fileNames.has(m.name))]);
  registry.onChange(follow);
  follow();
  return { ingress, registry };
}
