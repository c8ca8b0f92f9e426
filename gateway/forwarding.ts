/**
 * Reads served by the node that owns a workflow's shard: a route that needs the shard's store asks
 * the owner when this node does not hold the shard, and relays its answer.
 * @module
 */
import type { Request, Response } from 'express';
import { ShardUnavailableError } from './engine.js';
import { relayAnswer } from './http-errors.js';
import { STANDING_GRACE_MS } from './long-polls.js';
import { FORWARDED_HEADER, type PeerCalls } from './auth/peer-calls.js';
import { principalOf } from './auth/principal.js';

/** The node that serves a read: its own endpoint (never forwarded to) and its credentials for peers. */
export interface ForwardingNode {
  readonly selfEndpoint: string;
  readonly peers: PeerCalls;
}

/**
 * Serves a read locally, or forwards it to the shard's owner when another node has it. The whole
 * answer, forwarding included, comes within the request's own wait (`waitMsOf`, none for a plain
 * read) plus STANDING_GRACE_MS; an owner slower than that leaves the shard unavailable (503).
 */
export function forwardable(node: ForwardingNode, handler: (req: Request, res: Response) => Promise<void>, waitMsOf: (req: Request) => number = () => 0) {
  return async (req: Request, res: Response) => {
    const deadline = Date.now() + waitMsOf(req) + STANDING_GRACE_MS;
    try {
      await handler(req, res);
    } catch (error) {
      const alreadyForwarded = req.headers[FORWARDED_HEADER] !== undefined;
      if (!(error instanceof ShardUnavailableError) || !error.ownerEndpoint || error.ownerEndpoint === node.selfEndpoint || alreadyForwarded) throw error;
      const left = deadline - Date.now();
      if (left <= 0) throw error;
      // An owner that cannot be reached in time (it just failed, or is moving) leaves the shard unavailable: 503, not 500.
      const signal = AbortSignal.timeout(left);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : JSON.stringify(req.body ?? {});
      const url = `${error.ownerEndpoint}${req.originalUrl}`;
      const headers = { ...node.peers.headers(req.method, url, principalOf(res), body), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const forwarded = await fetch(url, { method: req.method, headers, ...(body === undefined ? {} : { body }), signal }).catch(() => {
        throw error;
      });
      await relayAnswer(res, forwarded).catch((failure: unknown) => {
        throw signal.aborted ? error : failure;
      });
    }
  };
}

