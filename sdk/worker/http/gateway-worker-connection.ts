import type { DataConverter, PayloadCodec } from '../../../topics/payload/index.js';
import type { GatewayAccess } from '../../common/gateway-access.js';

/** What a worker needs to reach the engine through gateways' HTTP task endpoints instead of Kafka. */
export interface GatewayWorkerConnection {
  readonly kind: 'gateway';
  /** The gateways' base URLs (`http://host:port`), tried in turn, and the credentials every call carries. */
  readonly gateways: GatewayAccess;
  readonly dataConverter: DataConverter;
  /** Payload codecs the workers apply at their boundaries (encryption); none by default. */
  readonly payloadCodecs?: readonly PayloadCodec[];
}

/** True for a connection through gateways (the other kind is a Kafka `WorkerConnection`). */
export function isGatewayConnection(connection: object): connection is GatewayWorkerConnection {
  return (connection as { kind?: unknown }).kind === 'gateway';
}
