import { BinaryPayloadConverter, CompositeDataConverter, JsonPayloadConverter, PayloadEnvelopeConverter, UndefinedPayloadConverter } from '../topics/payload/index.js';

/**
 * The gateway's converter for values of its HTTP API: JSON as the default converter, and a
 * `{ "$payload": {metadata, data} }` envelope taken as the payload it holds, so a client or HTTP
 * worker with payload codecs (encryption) sends arguments, memo and details the gateway never
 * reads — it only ever holds ciphertext.
 */
export const gatewayDataConverter = new CompositeDataConverter([
  new PayloadEnvelopeConverter(),
  new UndefinedPayloadConverter(),
  new BinaryPayloadConverter(),
  new JsonPayloadConverter(),
]);
