/**
 * Host side of the sandbox: one `node:vm` context per run, created with
 * `microtaskMode: 'afterEvaluate'` so that every step of an activation — the workflow's
 * synchronous code *and* the promise jobs it queues — runs inside `runInContext` under one
 * deadline. A workflow that loops past `deadlockTimeoutMs` is interrupted and its task fails with
 * a {@link DeadlockError}. Never imported by workflow code.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import vm from 'node:vm';
import { LogbookError } from '../../topics/errors.js';
import {
  HOST_BRIDGE_GLOBAL,
  SANDBOX_RUNTIME_GLOBAL,
  type ActivationInput,
  type ActivationOutput,
  type HostBridge,
  type QueryInput,
  type QueryOutput,
  type SandboxRuntime,
} from './bridge.js';

/** Workflow code blocked the event loop longer than the deadlock timeout. Remedy: fix the code. */
export class DeadlockError extends LogbookError {
  constructor(message: string) {
    super('WORKFLOW_DEADLOCK', message);
  }
}

// Compiled once: the host drives every context through these tiny scripts so that each call
// gets the deadline and the context's microtask checkpoint.
const activateScript = new vm.Script(`${SANDBOX_RUNTIME_GLOBAL}.activate()`, { filename: 'logbook:activate' });
const unblockScript = new vm.Script(`${SANDBOX_RUNTIME_GLOBAL}.unblockConditions()`, { filename: 'logbook:unblock' });
const concludeScript = new vm.Script(`${SANDBOX_RUNTIME_GLOBAL}.conclude()`, { filename: 'logbook:conclude' });
const queryScript = new vm.Script(`${SANDBOX_RUNTIME_GLOBAL}.query()`, { filename: 'logbook:query' });
const concludeQueryScript = new vm.Script(`${SANDBOX_RUNTIME_GLOBAL}.concludeQuery()`, { filename: 'logbook:conclude-query' });

/** What a sandbox needs to know to name itself in errors and bound its work. */
export interface SandboxOptions {
  /** Budget of one activation (and of evaluating the bundle), ms. */
  deadlockTimeoutMs: number;
}

/** The compiled bundle evaluated in every new context. */
export interface SandboxScript {
  readonly script: vm.Script;
}

/** A run's context with the workflow bundle evaluated in it. */
export class WorkflowSandbox {
  readonly #context: vm.Context;
  readonly #runtime: SandboxRuntime;
  readonly #bridge: HostBridge;
  readonly #timeoutMs: number;

  private constructor(context: vm.Context, runtime: SandboxRuntime, bridge: HostBridge, timeoutMs: number) {
    this.#context = context;
    this.#runtime = runtime;
    this.#bridge = bridge;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Creates the context, installs the bridge and evaluates the bundle (the user's module-level
   * code runs here, under the deadline).
   * @throws DeadlockError when evaluation exceeds the deadline; the evaluation error otherwise
   */
  static create(bundle: SandboxScript, bridge: HostBridge, options: SandboxOptions): WorkflowSandbox {
    const { info } = bridge;
    const context = vm.createContext(
      {},
      {
        name: `workflow ${info.workflowType} ${info.workflowId}`,
        microtaskMode: 'afterEvaluate',
        // WebAssembly compiles on the host's schedule; string evaluation stays (it is deterministic).
        codeGeneration: { strings: true, wasm: false },
      },
    );
    Object.defineProperty(context, HOST_BRIDGE_GLOBAL, { value: bridge, configurable: true, enumerable: false });
    // The intrinsic %Promise% (what async functions create), even if user code replaces `Promise`.
    trackSandboxPromises(vm.runInContext('(async () => {})().constructor', context) as PromiseConstructor);
    runBounded(() => bundle.script.runInContext(context, { timeout: options.deadlockTimeoutMs }), bridge, options.deadlockTimeoutMs, 'evaluating the workflow bundle');
    const runtime = (context as Record<string, unknown>)[SANDBOX_RUNTIME_GLOBAL] as SandboxRuntime | undefined;
    if (runtime === undefined) throw new Error('the workflow bundle did not install the Logbook runtime (built without bundleWorkflowCode?)');
    return new WorkflowSandbox(context, runtime, bridge, options.deadlockTimeoutMs);
  }

  /** Workflow types the bundle exports. */
  workflowTypes(): string[] {
    return [...this.#runtime.workflowTypes()];
  }

  /**
   * Runs one activation: the jobs, then the condition loop until every coroutine is blocked.
   * @throws DeadlockError when it takes longer than the deadlock timeout (the context is then unusable)
   */
  activate(input: ActivationInput): ActivationOutput {
    const deadline = performance.now() + this.#timeoutMs;
    const remaining = () => Math.max(1, Math.ceil(deadline - performance.now()));
    this.#runtime.prepare(input);
    const run = (script: vm.Script) =>
      runBounded(() => script.runInContext(this.#context, { timeout: remaining() }), this.#bridge, this.#timeoutMs, 'running an activation');
    // Every bounded step starts a watchdog thread (~150 µs), so steps that run no user code are
    // direct calls: the common activation costs one watchdog.
    run(activateScript);
    // A condition that unblocks lets code run, which may satisfy further conditions.
    while (this.#runtime.hasBlockedConditions() && (run(unblockScript) as number) > 0);
    // Describing a task failure reads user-defined error properties: bounded too.
    return this.#runtime.hasTaskFailure() ? (run(concludeScript) as ActivationOutput) : this.#runtime.conclude();
  }

  /**
   * Answers a query from the run's current state, between activations: the handler (and the
   * microtasks it causes) runs under the deadlock timeout in query mode, which refuses anything
   * that would change the run (see `queries.ts`).
   * @throws DeadlockError when the handler takes longer than the deadlock timeout (the context is then unusable)
   */
  query(input: QueryInput): QueryOutput {
    const deadline = performance.now() + this.#timeoutMs;
    const run = (script: vm.Script) =>
      runBounded(() => script.runInContext(this.#context, { timeout: Math.max(1, Math.ceil(deadline - performance.now())) }), this.#bridge, this.#timeoutMs, 'answering a query');
    this.#runtime.prepareQuery(input);
    run(queryScript);
    // Describing a failure reads user-defined error properties: bounded too.
    return this.#runtime.hasQueryFailure() ? (run(concludeQueryScript) as QueryOutput) : this.#runtime.concludeQuery();
  }

  /** Drops the run's pending state; the context is garbage once unreferenced. */
  dispose(): void {
    this.#runtime.dispose();
  }
}

function runBounded(step: () => unknown, bridge: HostBridge, timeoutMs: number, what: string): unknown {
  try {
    return step();
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
    const { workflowType, workflowId, runId } = bridge.info;
    throw new DeadlockError(
      `workflow ${workflowType} (workflowId ${workflowId}, runId ${runId}) did not yield within ${timeoutMs} ms while ${what} ` +
        '(deadlock detector): workflow code must not loop or block synchronously; do heavy work in an activity',
    );
  }
}

// Promise rejections nobody handles inside a sandbox surface as the *host's* 'unhandledRejection'
// (one isolate). Workflows routinely start work and await it later (`const a = act(); …; await a`),
// so such a rejection is not an error of the worker and must not crash it: it is ignored here.
// Other promises keep Node's default behaviour (crash) when no one else listens.
const sandboxPromiseTypes = new WeakSet<object>();
let listening = false;

function trackSandboxPromises(promiseType: PromiseConstructor): void {
  sandboxPromiseTypes.add(promiseType);
  if (listening) return;
  listening = true;
  process.on('unhandledRejection', (reason, promise) => {
    if (sandboxPromiseTypes.has(promise.constructor)) return;
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}

/** The one `AsyncLocalStorage` lent to every sandbox (see {@link HostBridge.asyncLocalStorage}). */
export const sharedAsyncLocalStorage: HostBridge['asyncLocalStorage'] = new AsyncLocalStorage<unknown>();
