/**
 * Who made a request, as the gateway's authentication established it. Routes read it from
 * `res.locals.principal`; without `--auth` every request is the anonymous development principal.
 */
export interface Principal {
  /** The token's `sub`, the certificate's subject, `peer` for another node, or `anonymous`. */
  readonly subject: string;
  /** How the caller proved who it is. */
  readonly method: 'jwt' | 'mtls' | 'peer' | 'none';
}

/** The principal of every request when authentication is off. */
export const ANONYMOUS: Principal = { subject: 'anonymous', method: 'none' };

/** The principal a request runs as (anonymous until authentication says otherwise). */
export function principalOf(res: { locals: Record<string, unknown> }): Principal {
  return (res.locals.principal as Principal | undefined) ?? ANONYMOUS;
}
