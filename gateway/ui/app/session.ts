/**
 * What the UI remembers for the browser tab: the bearer token it signs in with (a gateway with
 * `--auth` answers 401 without one) and the codec endpoint it decodes payloads through. Kept in
 * sessionStorage, so closing the tab forgets them.
 * @module
 */

const TOKEN = 'logbook.token';
const CODEC = 'logbook.codec';

/** The codec endpoint the UI decodes `$payload` envelopes through, and its own bearer token. */
export interface CodecSettings {
  readonly endpoint: string;
  readonly token: string;
}

/** The bearer token, if signed in. */
export function bearerToken(): string | undefined {
  return sessionStorage.getItem(TOKEN) ?? undefined;
}

/** Signs in with `token`, or out with `undefined`. */
export function setBearerToken(token: string | undefined): void {
  if (token) sessionStorage.setItem(TOKEN, token.trim());
  else sessionStorage.removeItem(TOKEN);
}

/** Who the token says it is (its `sub`), for the header; the gateway, not the UI, verifies it. */
export function tokenSubject(token: string): string {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof payload.sub === 'string' ? payload.sub : 'signed in';
  } catch {
    return 'signed in';
  }
}

/** The codec endpoint settings, if set. */
export function codecSettings(): CodecSettings | undefined {
  const saved = sessionStorage.getItem(CODEC);
  return saved ? (JSON.parse(saved) as CodecSettings) : undefined;
}

/** Sets the codec endpoint, or clears it with `undefined`. */
export function setCodecSettings(settings: CodecSettings | undefined): void {
  if (settings?.endpoint) sessionStorage.setItem(CODEC, JSON.stringify({ endpoint: settings.endpoint.replace(/\/+$/, ''), token: settings.token }));
  else sessionStorage.removeItem(CODEC);
}
