/**
 * How the gateway authenticates callers when `--auth` is on: bearer JWTs (HS256 from a shared
 * secret, or RS256/ES256 from a JWKS file of public keys) and client certificates on an HTTPS
 * listener (mTLS), whose subjects a principals file maps to claims.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { JSONWebKeySet } from 'jose';

/** The shortest HS256 secret taken: 256 bits, as RFC 7518 asks of HS256 keys. */
export const MIN_JWT_SECRET_BYTES = 32;

/** Bearer JWT verification. */
export interface JwtOptions {
  /** HS256: the secret the token issuer shares with the gateway. */
  readonly secret?: Uint8Array;
  /** RS256/ES256: the issuer's public keys. */
  readonly jwks?: JSONWebKeySet;
  /** When set, tokens must carry this `iss`. */
  readonly issuer?: string;
  /** When set, tokens must carry this `aud`. */
  readonly audience?: string;
}

/** Client certificates (the HTTPS listener verifies them against the client CA). */
export interface MtlsOptions {
  /** Claims (`permissions`, `taskQueues`) per certificate subject common name. */
  readonly principals: Readonly<Record<string, Record<string, unknown>>>;
}

/** Authentication on: at least one of the two ways in. */
export interface AuthOptions {
  readonly jwt?: JwtOptions;
  readonly mtls?: MtlsOptions;
}

/** The `--auth*` flags as `node:util` parseArgs options, with their environment defaults. */
export const AUTH_FLAGS = {
  auth: { type: 'boolean', default: process.env.LOGBOOK_AUTH === '1' },
  'auth-jwt-secret': { type: 'string', default: process.env.LOGBOOK_AUTH_JWT_SECRET ?? '' },
  'auth-jwks': { type: 'string', default: process.env.LOGBOOK_AUTH_JWKS ?? '' },
  'auth-issuer': { type: 'string', default: process.env.LOGBOOK_AUTH_ISSUER ?? '' },
  'auth-audience': { type: 'string', default: process.env.LOGBOOK_AUTH_AUDIENCE ?? '' },
  'auth-mtls-principals': { type: 'string', default: process.env.LOGBOOK_AUTH_MTLS_PRINCIPALS ?? '' },
} as const;

/** The parsed values of {@link AUTH_FLAGS}. */
export interface AuthFlagValues {
  readonly auth?: boolean;
  readonly 'auth-jwt-secret'?: string;
  readonly 'auth-jwks'?: string;
  readonly 'auth-issuer'?: string;
  readonly 'auth-audience'?: string;
  readonly 'auth-mtls-principals'?: string;
}

/**
 * The authentication the flags ask for, or `undefined` when `--auth` is off.
 * @param clientCertificates whether the listener asks for client certificates (`--tls-client-ca`)
 * @throws Error naming the flag: settings without `--auth`, `--auth` without a way in, a short
 *   secret, an unreadable JWKS or principals file
 */
export function authOptionsFromFlags(values: AuthFlagValues, clientCertificates: boolean): AuthOptions | undefined {
  const secret = values['auth-jwt-secret'] ?? '';
  const jwksFile = values['auth-jwks'] ?? '';
  const principalsFile = values['auth-mtls-principals'] ?? '';
  if (!values.auth) {
    const stray = (['auth-jwt-secret', 'auth-jwks', 'auth-issuer', 'auth-audience', 'auth-mtls-principals'] as const).find((flag) => (values[flag] ?? '') !== '');
    if (stray) throw new Error(`--${stray} needs --auth (LOGBOOK_AUTH=1): without it the gateway authenticates nobody`);
    return undefined;
  }
  if (!secret && !jwksFile && !principalsFile) {
    throw new Error('--auth needs a way to authenticate callers: --auth-jwt-secret (HS256), --auth-jwks FILE (RS256/ES256), or --auth-mtls-principals FILE with --tls-client-ca');
  }
  if (secret && Buffer.byteLength(secret) < MIN_JWT_SECRET_BYTES) throw new Error(`--auth-jwt-secret (LOGBOOK_AUTH_JWT_SECRET) must be at least ${MIN_JWT_SECRET_BYTES} bytes, got ${Buffer.byteLength(secret)}`);
  if (principalsFile && !clientCertificates) throw new Error('--auth-mtls-principals needs --tls-client-ca (and --tls-cert, --tls-key): client certificates are asked for only on an HTTPS listener');
  const jwt: JwtOptions | undefined = secret || jwksFile
    ? {
        ...(secret ? { secret: new TextEncoder().encode(secret) } : {}),
        ...(jwksFile ? { jwks: jsonFile<JSONWebKeySet>(jwksFile, '--auth-jwks (LOGBOOK_AUTH_JWKS)', (v) => Array.isArray((v as JSONWebKeySet).keys)) } : {}),
        ...(values['auth-issuer'] ? { issuer: values['auth-issuer'] } : {}),
        ...(values['auth-audience'] ? { audience: values['auth-audience'] } : {}),
      }
    : undefined;
  const mtls = principalsFile
    ? { principals: jsonFile<Record<string, Record<string, unknown>>>(principalsFile, '--auth-mtls-principals (LOGBOOK_AUTH_MTLS_PRINCIPALS)', (v) => typeof v === 'object' && v !== null && !Array.isArray(v)) }
    : undefined;
  return { ...(jwt ? { jwt } : {}), ...(mtls ? { mtls } : {}) };
}

function jsonFile<T>(path: string, flag: string, valid: (value: unknown) => boolean): T {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${flag}: cannot read ${path} as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!valid(value)) throw new Error(`${flag}: ${path} does not hold the expected JSON (see README, Security)`);
  return value as T;
}

/** The ways in, for the start-up line ("bearer JWT (HS256), client certificates"). */
export function describeAuth(options: AuthOptions): string {
  const ways = [
    ...(options.jwt?.secret ? ['bearer JWT (HS256)'] : []),
    ...(options.jwt?.jwks ? [`bearer JWT (RS256/ES256, ${options.jwt.jwks.keys.length} keys)`] : []),
    ...(options.mtls ? [`client certificates (${Object.keys(options.mtls.principals).length} principals)`] : []),
  ];
  return ways.join(', ');
}
