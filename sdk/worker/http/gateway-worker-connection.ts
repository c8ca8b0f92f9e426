import type { DataConverter, PayloadCodec } from '../../../topics/payload/index.js';

/** What a worker needs to reach the engine through gateways' HTTP task endpoints instead of Kafka. */
export interface GatewayWorkerConnection {
  readonly kind: 'gateway';
  /** Gateway base URLs (`http://host:port`), tried in turn. */
  readonly endpoints: readonly string[];
  readonly dataConverter: DataConverter;
  /** Payload codecs the workers apply at their boundaries (encryption); none by default. */
  readonly payloadCodecs?: readonly PayloadCodec[];
}

/** True for a connection through gateways (the other kind is a Kafka `WorkerConnection`). */
export function isGatewayConnection(connection: object): connection is GatewayWorkerConnection {
  return (connection as { kind?: unknown }).kind === 'gateway';
}
