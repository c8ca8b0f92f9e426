/**
 * First module of every workflow bundle. The bundle is evaluated once per run in a context that
 * many runs share (see `sandbox.ts`); evaluating this module (before the user's workflow module,
 * which the generated entry imports after it) reads the {@link HostBridge} the host installed,
 * creates the run's {@link Activator}, makes the context's globals deterministic (the first run
 * only: they dispatch to whichever run is current) and installs the {@link SandboxRuntime} the
 * host drives the run's activations through.
 * @module
 */
import { Activator, type WorkflowFunction } from './activator.js';
import { HOST_BRIDGE_GLOBAL, SANDBOX_RUNTIME_GLOBAL, type HostBridge, type SandboxRuntime } from './bridge.js';
import { ACTIVATOR_GLOBAL, currentActivator } from './current-activator.js';
import { QueryRunner } from './queries.js';
import { createRunTimers, installDeterministicGlobals } from './sandbox-globals.js';

const globals = globalThis as unknown as Record<string, unknown>;
const host = globals[HOST_BRIDGE_GLOBAL] as HostBridge | undefined;
if (host === undefined) {
  throw new Error('the workflow bundle must be evaluated by a Logbook worker (no host bridge installed)');
}
// Workflow code has no business with the bridge: only the runtime keeps it.
delete globals[HOST_BRIDGE_GLOBAL];

const activator = new Activator(host, createRunTimers);
// Both globals stay writable: the host makes each run of the context current in turn (`enter`).
const current = { value: activator, enumerable: false, writable: true, configurable: true };
const enter = () => {
  Object.defineProperty(globalThis, ACTIVATOR_GLOBAL, current);
  Object.defineProperty(globalThis, SANDBOX_RUNTIME_GLOBAL, { value: runtime, enumerable: false, writable: true, configurable: true });
};
installDeterministicGlobals(globalThis, () => currentActivator('a workflow global'));
const queries = new QueryRunner(activator);

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
// The user's module-level code, evaluated next, runs with this run current.
enter();

/** Registers every function the user's workflow module exports as a workflow type. */
export function registerWorkflows(module: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function') activator.workflows.set(name, value as WorkflowFunction);
  }
}
