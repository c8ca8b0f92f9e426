/**
 * The runtime half of every workflow bundle, evaluated once per sandbox context (see `sandbox.ts`
 * and `bundle.ts`): the workflow API's modules are made once and shared by the runs of the
 * context, because every piece of run state lives on the run's {@link Activator}, which the API
 * finds through the context's current run. Each run then evaluates only the user's modules:
 * {@link SharedRuntime.startRun} first reads the {@link HostBridge} the host installed, creates
 * the run's activator, makes the context's globals deterministic (the first run only: they
 * dispatch to whichever run is current) and leaves the {@link SandboxRuntime} the host drives the
 * run's activations through.
 * @module
 */
import { Activator, type WorkflowFunction } from './activator.js';
import { HOST_BRIDGE_GLOBAL, SANDBOX_RUNTIME_GLOBAL, type HostBridge, type SandboxRuntime } from './bridge.js';
import { ACTIVATOR_GLOBAL, currentActivator } from './current-activator.js';
import { QueryRunner } from './queries.js';
import { createRunTimers, installDeterministicGlobals } from './sandbox-globals.js';

/** What a context's one evaluation of the runtime offers the runs evaluated in it. */
export interface SharedRuntime {
  /** Starts a run: its activator from the host bridge, made current, its runtime left for the host. */
  startRun(): void;
  /** Registers every function the user's workflow module exports as a workflow type of the current run. */
  registerWorkflows(module: Record<string, unknown>): void;
  /** The runtime's modules by number, as the user's code imports them (filled by the generated entry). */
  modules: readonly unknown[];
}

const globals = globalThis as unknown as Record<string, unknown>;

function startRun(): void {
  const host = globals[HOST_BRIDGE_GLOBAL] as HostBridge | undefined;
  if (host === undefined) {
    throw new Error('the workflow bundle must be evaluated by a Logbook worker (no host bridge installed)');
  }
  // Workflow code has no business with the bridge: only the runtime keeps it.
  delete globals[HOST_BRIDGE_GLOBAL];
  const activator = new Activator(host, createRunTimers);
  const queries = new QueryRunner(activator);
  // Both globals stay writable: the host makes each run of the context current in turn (`enter`).
  const current = { value: activator, enumerable: false, writable: true, configurable: true };
  const enter = () => {
    Object.defineProperty(globalThis, ACTIVATOR_GLOBAL, current);
    Object.defineProperty(globalThis, SANDBOX_RUNTIME_GLOBAL, { value: runtime, enumerable: false, writable: true, configurable: true });
  };
  const runtime: SandboxRuntime = {
    enter,
    workflowTypes: () => [...activator.workflows.keys()],
    prepare: (input) => activator.prepare(input),
    activate: () => activator.activate(),
    unblockConditions: () => activator.unblockConditions(),
    hasBlockedConditions: () => activator.conditions.size > 0,
    hasTaskFailure: () => activator.hasTaskFailure,
    conclude: () => activator.conclude(),
    dispose: () => activator.dispose(),
    prepareQuery: (input) => queries.prepare(input),
    query: () => queries.run(),
    hasQueryFailure: () => queries.hasFailure(),
    concludeQuery: () => queries.conclude(),
  };
  installDeterministicGlobals(globalThis, () => currentActivator('a workflow global'));
  // The user's module-level code, evaluated next, runs with this run current.
  enter();
}

/** The one runtime of the context; the generated entry fills in its modules and publishes it. */
export const sharedRuntime: SharedRuntime = {
  startRun,
  registerWorkflows(module) {
    const activator = currentActivator('registerWorkflows');
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === 'function') activator.workflows.set(name, value as WorkflowFunction);
    }
  },
  modules: [],
};
