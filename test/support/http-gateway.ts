/**
 * The gateway's HTTP API over a test engine, on a free local port, for tests that go through the
 * clients or HTTP.
 * @module
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { ListenerTls } from '../../gateway/auth/listener-tls.js';
import type { Engine } from '../../gateway/engine.js';
import { createHttpApp, type HttpAppOptions } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';

/** Serves `engine`'s HTTP API on 127.0.0.1 and a free port (with `options`, e.g. `auth`); close the server when done. */
export async function serveGateway(engine: Engine, options: Partial<HttpAppOptions> = {}): Promise<Server> {
  const server = createServer(createHttpApp({ engine, metrics: new EngineMetrics(false).registry, selfEndpoint: 'self', ...options }));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return server;
}

/**
 * As {@link serveGateway}, over HTTPS with the listener settings of `--tls-cert`, `--tls-key` and
 * `--tls-client-ca` (`listenerTlsFromFlags`); close the server when done.
 */
export async function serveHttpsGateway(engine: Engine, tls: ListenerTls, options: Partial<HttpAppOptions> = {}): Promise<Server> {
  const server = createHttpsServer(tls.serverOptions, createHttpApp({ engine, metrics: new EngineMetrics(false).registry, selfEndpoint: 'self', ...options }));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return server;
}

/** The base address (`http://127.0.0.1:<port>`) of a server {@link serveGateway} started. */
export function addressOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
