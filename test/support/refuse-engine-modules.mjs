/**
 * Module hooks that make a process fail the moment it loads engine code (`processors/`,
 * `gateway/`, `state-stores/` of this repository): registered by `no-engine-code.mjs` in worker
 * and client processes whose point is to run without an engine.
 */
let root = '';

export function initialize(data) {
  root = data.root;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const inside = resolved.url.startsWith(root) ? resolved.url.slice(root.length) : null;
  if (inside !== null && /^(processors|gateway|state-stores)\//.test(inside)) {
    throw new Error(`this process must run no engine code, but ${context.parentURL ?? 'its entry'} imports ${inside}`);
  }
  return resolved;
}
