/**
 * `Client` of `logbook/client`: Temporal's entry point for calls about workflows, on one
 * namespace of a gateway.
 * @module
 */
import { assertValid, namespaceProblem } from '../../../topics/validation/index.js';
import { AsyncCompletionClient } from './async-completion-client.js';
import { Connection } from './connection.js';
import { ScheduleClient } from './schedule-client.js';
import { WorkflowClient } from './workflow-client.js';
import type { ResultWaitWrapper } from './workflow-handle.js';
import type { DataConverterOption } from '../../common/data-converter-option.js';

/** Options of a {@link Client} (Temporal's `ClientOptions`, the parts Logbook has). */
export interface ClientOptions {
  /** Where calls go; default a lazy connection to `127.0.0.1:8233`. */
  readonly connection?: Connection;
  /** Default `default`. */
  readonly namespace?: string;
  /**
   * Wraps every wait of a handle's `result()`: a time-skipping test environment lets time jump
   * while one runs, as Temporal's does.
   */
  readonly aroundResultWait?: ResultWaitWrapper;
  /**
   * Temporal's `dataConverter`: `{ payloadConverter?, payloadCodecs? }`, e.g. `{ payloadCodecs: [encryptionCodec] }`;
   * default the connection's. Arguments and memo are encoded before they leave, results, query and
   * update answers, memo and history decoded when they arrive; search attributes are never encoded.
   */
  readonly dataConverter?: DataConverterOption;
}

/**
 * The client Temporal users know: `client.workflow.start / execute / getHandle / …`.
 *
 * @example
 * import { Client, Connection } from 'logbook/client';
 * const connection = await Connection.connect({ address: '127.0.0.1:8233' });
 * const client = new Client({ connection, namespace: 'default' });
 * const result = await client.workflow.execute(order, { taskQueue: 'orders', workflowId: 'order-1', args: [input] });
 */
export class Client {
  readonly connection: Connection;
  readonly options: { readonly namespace: string };
  readonly workflow: WorkflowClient;
  /** Async activity completion by task token or ids. */
  readonly activity: AsyncCompletionClient;
  /** Schedules. */
  readonly schedule: ScheduleClient;

  /** @throws InvalidArgumentError for a namespace name that cannot be one */
  constructor(options: ClientOptions = {}) {
    const namespace = options.namespace ?? 'default';
    assertValid(namespaceProblem(namespace));
    this.connection = options.connection ?? Connection.lazy();
    this.options = { namespace };
    this.activity = new AsyncCompletionClient({ connection: this.connection, namespace });
    this.schedule = new ScheduleClient({ connection: this.connection, namespace });
    this.workflow = new WorkflowClient({
      connection: this.connection,
      namespace,
      ...(options.aroundResultWait ? { aroundResultWait: options.aroundResultWait } : {}),
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    });
  }
}
