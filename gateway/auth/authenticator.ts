/**
 * Establishes who made a request when authentication is on: a peer node's credential, a bearer
 * JWT, or a verified client certificate, in that order. A request with none of them, or with one
 * that does not verify, is answered 401 with what is missing.
 * @module
 */
import type { Request } from 'express';
import type { TLSSocket } from 'node:tls';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { HttpError } from '../http-errors.js';
import type { AuthOptions, JwtOptions } from './auth-options.js';
import { grantsOf, NO_GRANTS, type Grants } from './grants.js';
import type { PeerCalls } from './peer-calls.js';
import { PEER_HEADER } from './peer-calls.js';
import type { Principal } from './principal.js';

/** A principal with what it may do. */
export interface AuthenticatedPrincipal extends Principal {
  /** The rights its claims give; a peer's are not checked again (the first node did). */
  readonly grants: Grants;
}

/** The algorithms taken: HS256 with the shared secret, RS256 and ES256 from the JWKS. */
const SECRET_ALGORITHMS = ['HS256'];
const JWKS_ALGORITHMS = ['RS256', 'ES256'];

/** Authenticates requests against one gateway's {@link AuthOptions}. */
export class Authenticator {
  private readonly jwks: JWTVerifyGetKey | undefined;

  constructor(
    private readonly options: AuthOptions,
    private readonly peers: PeerCalls,
  ) {
    this.jwks = options.jwt?.jwks ? createLocalJWKSet(options.jwt.jwks) : undefined;
  }

  /**
   * Who made `req`.
   * @throws HttpError 401 `UNAUTHENTICATED` naming what is missing or why the credential failed;
   *   403 `PERMISSION_DENIED` for a verified token whose claims cannot be read
   */
  async principalOf(req: Request): Promise<AuthenticatedPrincipal> {
    const peer = req.headers[PEER_HEADER];
    if (typeof peer === 'string') return { ...this.peers.verify(peer, req.method, req.originalUrl), grants: NO_GRANTS };
    const authorization = req.headers.authorization;
    if (authorization !== undefined) return this.bearer(authorization);
    const certificate = this.certificate(req);
    if (certificate) return certificate;
    throw new HttpError(401, 'UNAUTHENTICATED', `this gateway requires authentication: send 'Authorization: Bearer <token>'${this.options.mtls ? ' or a client certificate' : ''}`);
  }

  private async bearer(authorization: string): Promise<AuthenticatedPrincipal> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new HttpError(401, 'UNAUTHENTICATED', `the Authorization header must be 'Bearer <token>'`);
    const jwt = this.options.jwt;
    if (!jwt) throw new HttpError(401, 'UNAUTHENTICATED', 'this gateway takes no bearer tokens, only client certificates');
    const token = match[1]!;
    let claims: Record<string, unknown>;
    try {
      claims = (await jwtVerify(token, this.keyFor(token, jwt), {
        algorithms: this.algorithms(jwt),
        // A token that never expires, or names nobody (the audit trail's "who"), is not taken.
        requiredClaims: ['exp', 'sub'],
        ...(jwt.issuer ? { issuer: jwt.issuer } : {}),
        ...(jwt.audience ? { audience: jwt.audience } : {}),
      })).payload;
    } catch (error) {
      throw new HttpError(401, 'UNAUTHENTICATED', `the bearer token was refused: ${whyRefused(error)}`);
    }
    return withGrants(String(claims.sub), 'jwt', claims);
  }

  /** The secret for HS256 tokens, the JWKS for the others (a token's header says which it is). */
  private keyFor(token: string, jwt: JwtOptions): Uint8Array | JWTVerifyGetKey {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new HttpError(401, 'UNAUTHENTICATED', 'the bearer token was refused: it is not a JWT (three base64url parts)');
    }
    if (alg === 'HS256' && jwt.secret) return jwt.secret;
    if (this.jwks && typeof alg === 'string' && JWKS_ALGORITHMS.includes(alg)) return this.jwks;
    throw new HttpError(401, 'UNAUTHENTICATED', `the bearer token was refused: algorithm ${String(alg)} is not accepted here (accepted: ${this.algorithms(jwt).join(', ')})`);
  }

  private algorithms(jwt: JwtOptions): string[] {
    return [...(jwt.secret ? SECRET_ALGORITHMS : []), ...(this.jwks ? JWKS_ALGORITHMS : [])];
  }

  /** The principal of a client certificate the listener verified, if the request came with one. */
  private certificate(req: Request): AuthenticatedPrincipal | undefined {
    const socket = req.socket as Partial<TLSSocket>;
    if (!this.options.mtls || typeof socket.getPeerCertificate !== 'function') return undefined;
    const peer = socket.getPeerCertificate();
    if (!peer || Object.keys(peer).length === 0) return undefined;
    if (!socket.authorized) throw new HttpError(401, 'UNAUTHENTICATED', `the client certificate was refused: ${String(socket.authorizationError ?? 'not signed by the client CA')}`);
    const subject = String(peer.subject?.CN ?? '');
    // Own entries only: a certificate named `constructor` must not find Object's.
    const claims = Object.hasOwn(this.options.mtls.principals, subject) ? this.options.mtls.principals[subject] : undefined;
    if (!claims) throw new HttpError(403, 'PERMISSION_DENIED', `the client certificate of '${subject}' is valid but has no entry in the principals file (--auth-mtls-principals)`);
    return withGrants(subject, 'mtls', claims);
  }
}

function withGrants(subject: string, method: 'jwt' | 'mtls', claims: Record<string, unknown>): AuthenticatedPrincipal {
  try {
    return { subject, method, grants: grantsOf(claims) };
  } catch (error) {
    throw new HttpError(403, 'PERMISSION_DENIED', `the credential of '${subject}' is valid but its claims cannot be read: ${(error as Error).message}`);
  }
}

/** A person-readable reason from jose's errors (expired, not yet valid, wrong issuer, bad signature). */
function whyRefused(error: unknown): string {
  if (error instanceof HttpError) return error.message.replace(/^the bearer token was refused: /, '');
  if (error instanceof errors.JWTExpired) return `it expired (exp ${String(error.payload.exp)})`;
  if (error instanceof errors.JWTClaimValidationFailed && error.reason === 'missing') return `it has no '${error.claim}' claim (tokens must carry exp and sub)`;
  if (error instanceof errors.JWTClaimValidationFailed) return `claim '${error.claim}' ${error.reason === 'check_failed' ? 'does not match' : error.reason.replaceAll('_', ' ')} (${error.message})`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not verify with this gateway\'s key';
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key of the JWKS matches its header (kid, alg)';
  if (error instanceof errors.JOSEAlgNotAllowed) return `its algorithm is not accepted here (${error.message})`;
  return error instanceof Error ? error.message : String(error);
}
