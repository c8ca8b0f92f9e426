/**
 * Calls one node of a deployment makes to another on a caller's behalf (a read forwarded to the
 * shard's owner, a reset, a wait's standing, visibility coverage, a schedule's describe). The first
 * node authenticated and authorised the caller; the peer trusts that, because the call carries a
 * short-lived credential signed with the deployment's key (the one that signs task tokens, shared
 * by every node through `--task-token-key`), bound to the method, path and body it was made for.
 * Within its minute a credential seen on the wire can be sent again as it was (there is no nonce):
 * run the nodes' gateways over TLS, or on a network only they share.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from './principal.js';
import { MIN_KEY_BYTES, TokenSigner } from '../task-endpoints/token-signer.js';
import { HttpError } from '../http-errors.js';
import type { Grants, Role } from './grants.js';
import { GatewayAccess } from '../../sdk/common/gateway-access.js';

/** Marks a call as coming from another node (the receiving node does not forward it again). */
export const FORWARDED_HEADER = 'x-logbook-forwarded';
/** The peer credential of a call from another node. */
export const PEER_HEADER = 'x-logbook-peer';

/** How long a peer credential is taken: one call's worth, with room for clock skew between nodes. */
const PEER_CREDENTIAL_TTL_MS = 60_000;

interface PeerClaims {
  /** Who the first node served. */
  readonly sub: string;
  readonly method: string;
  readonly path: string;
  /** SHA-256 of the JSON body sent (of nothing for a GET), base64url. */
  readonly body: string;
  readonly exp: number;
  /** The caller's rights, for the checks a route makes once it has read the run (a worker's queue). */
  readonly grants?: { readonly roles: ReadonlyArray<readonly [string, Role]>; readonly taskQueues: readonly string[] };
}

/** Marks the signed text as a peer credential, so a task token (same key) can never pass for one, nor the reverse. */
const DOMAIN = 'peer.';

/** A peer call's principal: whom the first node served, and the digest of the body the credential was made for. */
export interface PeerPrincipal extends Principal {
  readonly method: 'peer';
  readonly bodyDigest: string;
  /** The rights of the caller the first node served, when it was an authenticated one. */
  readonly callerGrants?: Grants;
}

/** The digest a peer credential binds: SHA-256 of the body as sent (`JSON.stringify` of the parsed body; empty without one). */
export function bodyDigestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** Signs this node's calls to its peers and checks theirs. */
export class PeerCalls {
  private readonly signer: TokenSigner;

  /** @param deploymentKey the key every node of the deployment shares (default: a random one, a single node) */
  constructor(deploymentKey: Buffer = randomBytes(MIN_KEY_BYTES)) {
    this.signer = new TokenSigner(deploymentKey);
  }

  /**
   * The headers of a call to a peer.
   * @param method the HTTP method of the call
   * @param url the URL called (the credential is bound to its path and query)
   * @param onBehalfOf whom the call serves (default: the node itself)
   * @param body the body sent, as sent (none for a GET)
   */
  headers(method: string, url: string, onBehalfOf?: Principal, body = ''): Record<string, string> {
    const { pathname, search } = new URL(url);
    const grants = (onBehalfOf as { grants?: Grants } | undefined)?.grants;
    const claims: PeerClaims = {
      sub: onBehalfOf?.subject ?? 'peer', method: method.toUpperCase(), path: `${pathname}${search}`, body: bodyDigestOf(body), exp: Date.now() + PEER_CREDENTIAL_TTL_MS,
      ...(grants && onBehalfOf?.method !== 'peer' ? { grants: { roles: [...grants.roles], taskQueues: [...grants.taskQueues] } } : {}),
    };
    return { [FORWARDED_HEADER]: '1', [PEER_HEADER]: this.signer.sign(`${DOMAIN}${Buffer.from(JSON.stringify(claims)).toString('base64url')}`) };
  }

  /** An access to another node's gateway whose every call carries this node's credential. */
  access(endpoint: string): GatewayAccess {
    return new GatewayAccess(endpoint, {
      perCall: (method, url) => {
        // The access signs no body: a call that sends one would be refused by the peer.
        if (method !== 'GET' && method !== 'HEAD') throw new TypeError(`a peer access makes reads only, not ${method} ${url}`);
        return this.headers(method, url);
      },
    });
  }

  /**
   * The principal a peer call runs as.
   * @throws HttpError 401 when the credential was not signed with this deployment's key, is for
   *   another method or path, or has expired
   */
  verify(credential: string, method: string, path: string): PeerPrincipal {
    let payload: string;
    try {
      payload = this.signer.verify(credential);
    } catch {
      throw new HttpError(401, 'UNAUTHENTICATED', `the ${PEER_HEADER} credential was not signed with this deployment's key: give every node the same --task-token-key`);
    }
    if (!payload.startsWith(DOMAIN)) throw new HttpError(401, 'UNAUTHENTICATED', `the ${PEER_HEADER} credential is not a peer credential`);
    const claims = JSON.parse(Buffer.from(payload.slice(DOMAIN.length), 'base64url').toString('utf8')) as PeerClaims;
    if (claims.method !== method.toUpperCase() || claims.path !== path) throw new HttpError(401, 'UNAUTHENTICATED', `the ${PEER_HEADER} credential was issued for ${claims.method} ${claims.path}, not this call`);
    if (claims.exp < Date.now()) throw new HttpError(401, 'UNAUTHENTICATED', `the ${PEER_HEADER} credential has expired`);
    return {
      subject: claims.sub, method: 'peer', bodyDigest: claims.body,
      ...(claims.grants ? { callerGrants: { roles: new Map(claims.grants.roles), taskQueues: new Set(claims.grants.taskQueues) } } : {}),
    };
  }
}
