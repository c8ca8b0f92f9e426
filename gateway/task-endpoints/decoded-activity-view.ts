import type { DataConverter, Payload } from '../../topics/payload/index.js';
import type { ActivityTask } from '../../topics/schemas/activity-task/index.js';
import { toRawView } from '../../topics/wire/raw-view.js';

/**
 * An activity task as an HTTP worker asked for it with `decodePayloads: true`: its arguments,
 * heartbeat details and header values as the values they hold (JSON), not payload records. A
 * payload the converter cannot read (a custom or encrypted encoding) stays a raw payload record,
 * `{metadata, data}` with bytes as `{"$b64": …}`, so nothing is lost.
 */
export function decodedActivityView(task: ActivityTask, converter: DataConverter): unknown {
  const decode = (payload: Payload): unknown => {
    try {
      return toRawView(converter.fromPayload(payload));
    } catch {
      return toRawView(payload);
    }
  };
  return {
    ...(toRawView(task) as Record<string, unknown>),
    input: task.input.map(decode),
    heartbeatDetails: task.heartbeatDetails === null ? null : decode(task.heartbeatDetails),
    header: Object.fromEntries(Object.entries(task.header).map(([k, v]) => [k, decode(v)])),
  };
}
