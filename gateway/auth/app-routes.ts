/**
 * The routes an express app serves, read from its router (express 5's `app.router.stack`, routers
 * mounted with `app.use` included), each with the rule its first handler carries, if any.
 * @module
 */
import type { Express } from 'express';
import type { RouteRule } from './route-rules.js';

/** One method and path of an app, and the rule that authorises it (undefined: none). */
export interface AppRoute {
  readonly method: string;
  readonly path: string;
  readonly rule: RouteRule | undefined;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: Array<{ handle: { rule?: RouteRule } }> };
  handle?: { stack?: Layer[] };
}

/** Every route of `app`, in registration order. */
export function appRoutes(app: Express): AppRoute[] {
  const found: AppRoute[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const method of Object.keys(layer.route.methods)) {
          for (const path of paths) found.push({ method: method.toUpperCase(), path, rule: layer.route.stack[0]?.handle.rule });
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}
