/**
 * `getExternalWorkflowHandle`: signal or cancel another workflow from workflow code. Each call
 * issues one command under the next `external` sequence number; the engine answers with an
 * `ExternalWorkflowExecution…` or `…Failed` event, which resolves or rejects the promise.
 * @module
 */
import { CancellationScope } from './cancellation-scope.js';
import { currentActivator } from './current-activator.js';
import type { SignalDefinition } from './signals.js';
import type { Activator } from './activator.js';
import type { SandboxCommand } from './bridge.js';

/** A handle on another workflow (Temporal's `ExternalWorkflowHandle`). */
export interface ExternalWorkflowHandle {
  readonly workflowId: string;
  /** The run addressed; undefined = the workflow's current run. */
  readonly runId?: string;
  /**
   * Sends a signal. Resolves once the target recorded it; rejects with an `ApplicationFailure`
   * of type `ExternalWorkflowExecutionNotFound` if the workflow does not exist or is closed.
   */
  signal<Args extends unknown[]>(def: SignalDefinition<Args> | string, ...args: Args): Promise<void>;
  /** Asks the workflow to cancel. Resolves once the target recorded the request; rejects like {@link signal}. */
  cancel(): Promise<void>;
}

type ExternalCommand = Extract<SandboxCommand, { type: 'SignalExternalWorkflowExecution' | 'RequestCancelExternalWorkflowExecution' }>;

function send(activator: Activator, command: (seq: number) => ExternalCommand): Promise<void> {
  const reason = CancellationScope.current().reason;
  if (reason !== null) return Promise.reject(reason);
  return sendExternal(activator, command);
}

/**
 * Issues a signal or cancellation request to another workflow under the next `external` sequence
 * number, whatever the current scope (a child's cancellation is sent from a cancelled scope);
 * resolves once the target recorded it.
 */
export function sendExternal(activator: Activator, command: (seq: number) => ExternalCommand): Promise<void> {
  const seq = activator.nextSeq('external');
  const promise = new Promise<void>((resolve, reject) => {
    activator.externals.set(seq, { resolve: () => resolve(), reject });
    activator.pushCommand(command(seq));
  });
  // Handled here so that a rejection before the workflow awaits it is not "unhandled" for the host.
  promise.catch(() => undefined);
  return promise;
}

/** Implementation of the public `getExternalWorkflowHandle`. */
export function getExternalWorkflowHandle(workflowId: string, runId?: string): ExternalWorkflowHandle {
  const target = { workflowId, runId: runId ?? null };
  return {
    workflowId,
    runId,
    signal<Args extends unknown[]>(def: SignalDefinition<Args> | string, ...args: Args): Promise<void> {
      const activator = currentActivator('getExternalWorkflowHandle(…).signal');
      const signalName = typeof def === 'string' ? def : def.name;
      const encoded = args.map((arg) => activator.host.encode(arg));
      return send(activator, (seq) => ({ type: 'SignalExternalWorkflowExecution', seq, ...target, signalName, args: encoded }));
    },
    cancel(): Promise<void> {
      const activator = currentActivator('getExternalWorkflowHandle(…).cancel');
      return send(activator, (seq) => ({ type: 'RequestCancelExternalWorkflowExecution', seq, ...target }));
    },
  };
}
