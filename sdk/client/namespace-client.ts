import { gatewayCall } from './gateway-call.js';
import { accessOf, type GatewayAccess, type GatewayClientOptions } from '../common/gateway-access.js';

/** A namespace as the gateway describes it. */
export interface NamespaceDescription {
  readonly name: string;
  readonly description: string;
  readonly ownerEmail: string;
  readonly state: 'Registered' | 'Deprecated';
  /** The retention as a duration (`'72h'`) and in ms. */
  readonly retention: string;
  readonly retentionMs: number;
  /** Per-run history limits of the namespace; null: the engine's default. */
  readonly historyLimits: Readonly<Record<string, number | null>>;
  readonly startsPerSecond: number | null;
  readonly apiCallsPerSecond: number | null;
  readonly taskQueueActivitiesPerSecond: Readonly<Record<string, number>>;
  /** Task queues whose payloads the engine accepts only encrypted (`binary/encrypted`); `'*'`: every queue. */
  readonly codecRequiredTaskQueues: readonly string[];
  /** Search attribute names the engine refuses in starts and upserts (compared without regard to case). */
  readonly refusedSearchAttributes: readonly string[];
  /** RFC 3339. */
  readonly registerTime: string;
  readonly updateTime: string;
}

/** What register and update may set (update: absent fields keep their value, null clears a rate or limit). */
export interface NamespaceSettings {
  readonly description?: string;
  readonly ownerEmail?: string;
  readonly state?: 'Registered' | 'Deprecated';
  /** How long closed runs are kept: ms or a duration such as `'72h'`, `'7d'`. */
  readonly retention?: number | string;
  readonly historyLimits?: Readonly<Record<string, number | null>>;
  readonly startsPerSecond?: number | null;
  readonly apiCallsPerSecond?: number | null;
  readonly taskQueueActivitiesPerSecond?: Readonly<Record<string, number | null>>;
  /**
   * Task queues whose payloads must be encrypted by a payload codec: plaintext ones are refused
   * (`PlaintextPayloadRefused`). Exact names or `'*'`; replaces the list, `[]` clears it.
   */
  readonly codecRequiredTaskQueues?: readonly string[];
  /** Search attribute names refused (`SearchAttributeRefused`): where personal data must not go. Replaces the list, `[]` clears it. */
  readonly refusedSearchAttributes?: readonly string[];
}

/**
 * Registers, describes, updates and lists namespaces through the gateway (Temporal's
 * `RegisterNamespace`, `DescribeNamespace`, `UpdateNamespace`, `ListNamespaces`). Errors are
 * {@link WorkflowClientError}s: 400 `INVALID_ARGUMENT`, 404 `NamespaceNotFound`, 409
 * `NamespaceAlreadyExists`.
 *
 * @example
 * const namespaces = new NamespaceClient({ address: 'http://127.0.0.1:8233' });
 * await namespaces.register('billing', { retention: '7d', startsPerSecond: 50 });
 * await namespaces.update('billing', { codecRequiredTaskQueues: ['payments'], refusedSearchAttributes: ['CustomerEmail'] });
 */
export class NamespaceClient {
  private readonly base: string;
  private readonly access: GatewayAccess;

  /** `apiKey` and `metadata` go with every call (or the `access` of a connection). */
  constructor(options: GatewayClientOptions) {
    this.access = accessOf(options);
    this.base = `${this.access.baseUrl}/api/v1/namespaces`;
  }

  register(name: string, settings: NamespaceSettings = {}): Promise<NamespaceDescription> {
    return this.call('POST', '', { name, ...settings });
  }

  describe(name: string): Promise<NamespaceDescription> {
    return this.call('GET', `/${encodeURIComponent(name)}`);
  }

  update(name: string, settings: NamespaceSettings): Promise<NamespaceDescription> {
    return this.call('PATCH', `/${encodeURIComponent(name)}`, settings);
  }

  async list(): Promise<NamespaceDescription[]> {
    return (await this.call<{ namespaces: NamespaceDescription[] }>('GET', '')).namespaces;
  }

  private call<T = NamespaceDescription>(method: string, path: string, body?: unknown): Promise<T> {
    return gatewayCall<T>(method, `${this.base}${path}`, body, this.access);
  }
}
