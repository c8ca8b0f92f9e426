/**
 * Host side of the sandbox. The runs of one workflow bundle share a `node:vm` context (Temporal's
 * reusable VM): running the bundle in the context evaluates the workflow runtime once and leaves a
 * function that each run calls anew, so the user's modules have their own state per run while the
 * context, its intrinsics, the runtime and the compiled code are made once. Before each
 * call into a run the host makes it the context's current run (the deterministic globals — `Date`,
 * `Math.random`, timers, `console` — act for it) and swaps in the globals the run's code defined
 * (`globalThis.x = …`, non-enumerable and symbol-keyed ones too, and its replacement of a built-in
 * or of a global the runtime installed), swapping them out again afterwards, so one run never sees
 * another's.
 * Changes to built-in objects and prototypes (`Math.max = …`, `Array.prototype.x = …`) are shared
 * by the runs of a context: workflow code must not make them.
 *
 * The context is created with `microtaskMode: 'afterEvaluate'` so that every step of an activation
 * — the workflow's synchronous code *and* the promise jobs it queues — runs inside `runInContext`
 * under one deadline. A workflow that loops past `deadlockTimeoutMs` is interrupted and its task
 * fails with a {@link DeadlockError}; the interrupted context is then given up (its microtask queue
 * may hold the interrupted run's jobs), later runs get a new one, and the runs it held fail their
 * next call with {@link SandboxContextLostError} so the worker replays them. Never imported by
 * workflow code.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import vm from 'node:vm';
import { LogbookError } from '../../topics/errors.js';
import {
  ACTIVATOR_GLOBAL,
  HOST_BRIDGE_GLOBAL,
  INSTALLED_GLOBALS_GLOBAL,
  RUN_FACTORY_GLOBAL,
  SANDBOX_RUNTIME_GLOBAL,
  type ActivationInput,
  type ActivationOutput,
  type HostBridge,
  type QueryInput,
  type QueryOutput,
  type SandboxRuntime,
} from './bridge.js';
import { blameDeadlockOn, underSharedWatchdog } from './shared-watchdog.js';

/** Workflow code blocked the event loop longer than the deadlock timeout. Remedy: fix the code. */
export class DeadlockError extends LogbookError {
  constructor(message: string) {
    super('WORKFLOW_DEADLOCK', message);
  }
}

/**
 * Workflow code defined a global that cannot be deleted, so the runs sharing its sandbox context
 * could not be kept apart. Remedy: define the global configurable (or not at all).
 */
export class PinnedGlobalError extends LogbookError {
  constructor(message: string) {
    super('WORKFLOW_GLOBAL_PINNED', message);
  }
}

/**
 * The run's context was given up because another run's code deadlocked in it. Remedy: none, the
 * worker replays the run in a new context.
 */
export class SandboxContextLostError extends LogbookError {
  constructor(message: string) {
    super('SANDBOX_CONTEXT_LOST', message);
  }
}

// Compiled once: the host drives every context through these tiny scripts so that each call
// gets the deadline and the context's microtask checkpoint.
const evaluateRunScript = new vm.Script(`${RUN_FACTORY_GLOBAL}()`, { filename: 'logbook:evaluate-run' });
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

/**
 * The compiled bundle. Its code defines the run factory ({@link RUN_FACTORY_GLOBAL}) when run in
 * a context; `bundleWorkflowCode` builds it so.
 */
export interface SandboxScript {
  readonly script: vm.Script;
}

/** One context the runs of a bundle share, until a deadlock makes it unusable. */
class SharedContext {
  readonly context: vm.Context;
  /** Global keys present before any run: never swapped out. */
  readonly #baseline: Set<string | symbol>;
  /** The run whose globals are in the context now. */
  #current: RunGlobals | null = null;
  /** Deletes globals from inside the context (a delete on the host's side leaves the context's copy); answers the keys it could not delete. */
  readonly #deleteGlobals: (keys: Array<string | symbol>) => Array<string | symbol>;
  /** The context's own built-in globals (`Math`, `escape`, …) as created, put back when a run's replacement of one is swapped out. */
  readonly #builtins: ReadonlyMap<string | symbol, PropertyDescriptor>;
  /** Defines a global from inside the context (a symbol-keyed one defined on the host's side stays invisible there). */
  readonly #defineGlobal: (key: string | symbol, descriptor: PropertyDescriptor) => void;
  /**
   * The context's symbol-keyed globals with their descriptors, read from inside: code in the
   * context sets them on its global object itself, not on the host's sandbox object.
   */
  readonly #symbolGlobals: () => Array<[symbol, PropertyDescriptor]>;
  lost = false;

  constructor(bundle: SandboxScript, name: string, timeoutMs: number) {
    this.context = vm.createContext(
      {},
      {
        name,
        microtaskMode: 'afterEvaluate',
        // WebAssembly compiles on the host's schedule; string evaluation stays (it is deterministic).
        codeGeneration: { strings: true, wasm: false },
      },
    );
    this.#builtins = vm.runInContext('new Map(Reflect.ownKeys(globalThis).map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)]))', this.context) as Map<string | symbol, PropertyDescriptor>;
    // The intrinsic %Promise% (what async functions create), even if user code replaces `Promise`.
    trackSandboxPromises(vm.runInContext('(async () => {})().constructor', this.context) as PromiseConstructor);
    // Evaluates the runtime and defines the run factory: no user code runs yet.
    bundle.script.runInContext(this.context, { timeout: timeoutMs });
    this.#deleteGlobals = vm.runInContext('(keys) => keys.filter((key) => !(delete globalThis[key]))', this.context) as (keys: Array<string | symbol>) => Array<string | symbol>;
    this.#defineGlobal = vm.runInContext('(key, descriptor) => { Object.defineProperty(globalThis, key, descriptor); }', this.context) as (key: string | symbol, descriptor: PropertyDescriptor) => void;
    this.#symbolGlobals = vm.runInContext('() => Object.getOwnPropertySymbols(globalThis).map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)])', this.context) as () => Array<[symbol, PropertyDescriptor]>;
    // The runtime's own globals: those it makes current for each run, and its record of the rest.
    this.#baseline = new Set([
      ...Reflect.ownKeys(this.context),
      ...this.#symbolGlobals().map(([key]) => key),
      HOST_BRIDGE_GLOBAL,
      ACTIVATOR_GLOBAL,
      SANDBOX_RUNTIME_GLOBAL,
      INSTALLED_GLOBALS_GLOBAL,
    ]);
  }

  /** The globals the runtime installed (name → value), once the first run's evaluation installed them. */
  get #installed(): Readonly<Record<string, unknown>> | undefined {
    return (this.context as Record<string, unknown>)[INSTALLED_GLOBALS_GLOBAL] as Readonly<Record<string, unknown>> | undefined;
  }

  /** Deletes globals inside the context. */
  forget(...keys: string[]): void {
    this.#deleteGlobals(keys);
  }

  /**
   * Puts `run`'s globals in the context (taking the previous run's out first).
   * @throws SandboxContextLostError when they cannot be (the context is given up)
   */
  swapIn(run: RunGlobals): void {
    if (this.#current === run) return;
    if (this.#current) this.swapOut(this.#current);
    try {
      for (const [key, descriptor] of run.assigned) {
        if (descriptor) this.#defineGlobal(key, descriptor);
        else this.#deleteGlobals([key]);
      }
    } catch (error) {
      this.lost = true;
      throw new SandboxContextLostError(`a run's globals could not be put back in its sandbox context, which is given up: ${String(error)}`);
    }
    run.assigned.clear();
    this.#current = run;
  }

  /**
   * Moves the globals `run`'s code defined out of the context, into the run, as property
   * descriptors: every own key, symbols and non-enumerable ones included, and any global the
   * runtime installed, or built-in, that the run replaced or deleted (the original is put back).
   * A global that cannot be taken out (defined non-configurable) would be seen by the next run:
   * the context is given up (its other runs are replayed in a new one) and the run's call fails.
   * @throws PinnedGlobalError naming the global
   */
  swapOut(run: RunGlobals): void {
    if (this.#current !== run) return;
    this.#current = null;
    let pinned: Array<string | symbol>;
    try {
      pinned = this.#takeOut(run);
    } catch (error) {
      this.lost = true;
      throw new PinnedGlobalError(`the run's globals could not be taken out of its sandbox context: ${String(error)}`);
    }
    if (pinned.length > 0) {
      this.lost = true;
      throw new PinnedGlobalError(
        `workflow code defined the global ${pinned.map(String).join(', ')} so that it cannot be deleted (Object.defineProperty without configurable: true); ` +
          'the runs of a bundle share one sandbox context and a global no run can take out would be seen by the others: define it configurable',
      );
    }
  }

  /** Takes the run's globals out; answers the ones that could not be deleted. */
  #takeOut(run: RunGlobals): Array<string | symbol> {
    const installed = this.#installed ?? {};
    const runsOwn = (key: string | symbol) => !this.#baseline.has(key) && !(typeof key === 'string' && Object.hasOwn(installed, key));
    const own: Array<[string | symbol, PropertyDescriptor | undefined]> = [];
    for (const key of Reflect.ownKeys(this.context)) {
      if (!runsOwn(key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(this.context, key);
      // A built-in put back by an earlier swap lives on the sandbox object now: it is nobody's.
      if (descriptor && 'value' in descriptor && this.#builtins.get(key)?.value === descriptor.value) continue;
      own.push([key, descriptor]);
    }
    for (const [key, descriptor] of this.#symbolGlobals()) if (runsOwn(key) && !this.#builtins.has(key)) own.push([key, descriptor]);
    for (const [key, descriptor] of own) run.assigned.set(key, descriptor);
    const pinned = own.length > 0 ? this.#deleteGlobals(own.map(([key]) => key)) : [];
    for (const [key] of own) {
      const builtin = this.#builtins.get(key);
      if (builtin && !pinned.includes(key)) this.#defineGlobal(key, builtin);
    }
    for (const [name, value] of Object.entries(installed)) {
      const descriptor = Object.getOwnPropertyDescriptor(this.context, name);
      if (descriptor && descriptor.value === value) continue;
      run.assigned.set(name, descriptor);
      this.#defineGlobal(name, { value, enumerable: false, writable: true, configurable: true });
    }
    return pinned;
  }
}

/**
 * The globals one run's code defined, as property descriptors (undefined: the run deleted an
 * installed one), while they are out of the context.
 */
interface RunGlobals {
  readonly assigned: Map<string | symbol, PropertyDescriptor | undefined>;
}

/** The shared context of each bundle (a new one replaces a lost one). */
const contexts = new WeakMap<SandboxScript['script'], SharedContext>();

function sharedContext(bundle: SandboxScript, bridge: HostBridge, timeoutMs: number): SharedContext {
  let shared = contexts.get(bundle.script);
  if (!shared || shared.lost) {
    shared = runBounded(() => new SharedContext(bundle, 'logbook workflow runs', timeoutMs), bridge, timeoutMs, 'loading the workflow bundle') as SharedContext;
    contexts.set(bundle.script, shared);
  }
  return shared;
}

/** A run: the bundle evaluated for it in its bundle's shared context. */
export class WorkflowSandbox {
  readonly #shared: SharedContext;
  readonly #globals: RunGlobals;
  readonly #runtime: SandboxRuntime;
  readonly #bridge: HostBridge;
  readonly #timeoutMs: number;

  private constructor(shared: SharedContext, runtime: SandboxRuntime, globals: RunGlobals, bridge: HostBridge, timeoutMs: number) {
    this.#shared = shared;
    this.#runtime = runtime;
    this.#globals = globals;
    this.#bridge = bridge;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Evaluates the bundle for a new run in its bundle's shared context (the user's module-level
   * code runs here, under the deadline), with the bridge installed for it.
   * @throws DeadlockError when evaluation exceeds the deadline; the evaluation error otherwise
   */
  static create(bundle: SandboxScript, bridge: HostBridge, options: SandboxOptions): WorkflowSandbox {
    const shared = sharedContext(bundle, bridge, options.deadlockTimeoutMs);
    const what = 'evaluating the workflow bundle';
    const batched = underSharedWatchdog();
    // Before the context is touched: an interruption from here on gives it up.
    if (batched) blameDeadlockOn(() => deadlocked(bridge, options.deadlockTimeoutMs, what, shared));
    const globals: RunGlobals = { assigned: new Map() };
    shared.swapIn(globals);
    const context = shared.context as Record<string, unknown>;
    Object.defineProperty(context, HOST_BRIDGE_GLOBAL, { value: bridge, configurable: true, enumerable: false });
    // The runtime the evaluation installs is read below: not the previous run's.
    shared.forget(SANDBOX_RUNTIME_GLOBAL);
    try {
      if (batched) {
        evaluateRunScript.runInContext(shared.context);
      } else {
        runBounded(() => evaluateRunScript.runInContext(shared.context, { timeout: options.deadlockTimeoutMs }), bridge, options.deadlockTimeoutMs, what, shared);
      }
    } finally {
      shared.forget(HOST_BRIDGE_GLOBAL);
      shared.swapOut(globals);
    }
    const runtime = context[SANDBOX_RUNTIME_GLOBAL] as SandboxRuntime | undefined;
    if (runtime === undefined) throw new Error('the workflow bundle did not install the Logbook runtime (built without bundleWorkflowCode?)');
    return new WorkflowSandbox(shared, runtime, globals, bridge, options.deadlockTimeoutMs);
  }

  /** Workflow types the bundle exports. */
  workflowTypes(): string[] {
    return [...this.#runtime.workflowTypes()];
  }

  /**
   * Runs one activation: the jobs, then the condition loop until every coroutine is blocked.
   * @throws DeadlockError when it takes longer than the deadlock timeout (the context is then given up)
   * @throws SandboxContextLostError when another run's deadlock gave up this run's context
   */
  activate(input: ActivationInput): ActivationOutput {
    const deadline = performance.now() + this.#timeoutMs;
    const remaining = () => Math.max(1, Math.ceil(deadline - performance.now()));
    const what = 'running an activation';
    const batched = underSharedWatchdog();
    // Before the context is touched (swapping the run's globals in): an interruption from here on gives it up.
    if (batched) blameDeadlockOn(() => deadlocked(this.#bridge, this.#timeoutMs, what, this.#shared));
    return this.#within(() => {
      this.#runtime.prepare(input);
      // Every bounded step starts a watchdog thread (~100 µs), so steps that run no user code are
      // direct calls: the common activation costs one watchdog, or a share of a batch's one.
      const run = batched
        ? (script: vm.Script) => script.runInContext(this.#shared.context)
        : (script: vm.Script) => runBounded(() => script.runInContext(this.#shared.context, { timeout: remaining() }), this.#bridge, this.#timeoutMs, what, this.#shared);
      run(activateScript);
      // A condition that unblocks lets code run, which may satisfy further conditions.
      while (this.#runtime.hasBlockedConditions() && (run(unblockScript) as number) > 0);
      // Describing a task failure reads user-defined error properties: bounded too.
      return this.#runtime.hasTaskFailure() ? (run(concludeScript) as ActivationOutput) : this.#runtime.conclude();
    });
  }

  /**
   * Answers a query from the run's current state, between activations: the handler (and the
   * microtasks it causes) runs under the deadlock timeout in query mode, which refuses anything
   * that would change the run (see `queries.ts`).
   * @throws DeadlockError when the handler takes longer than the deadlock timeout (the context is then given up)
   * @throws SandboxContextLostError when another run's deadlock gave up this run's context
   */
  query(input: QueryInput): QueryOutput {
    const deadline = performance.now() + this.#timeoutMs;
    return this.#within(() => {
      const run = (script: vm.Script) =>
        runBounded(() => script.runInContext(this.#shared.context, { timeout: Math.max(1, Math.ceil(deadline - performance.now())) }), this.#bridge, this.#timeoutMs, 'answering a query', this.#shared);
      this.#runtime.prepareQuery(input);
      run(queryScript);
      // Describing a failure reads user-defined error properties: bounded too.
      return this.#runtime.hasQueryFailure() ? (run(concludeQueryScript) as QueryOutput) : this.#runtime.concludeQuery();
    });
  }

  /** Drops the run's pending state and its globals; the context stays for the other runs. */
  dispose(): void {
    this.#runtime.dispose();
    this.#globals.assigned.clear();
  }

  /** Runs `step` with this run current in its context, its globals swapped in. */
  #within<T>(step: () => T): T {
    if (this.#shared.lost) {
      const { workflowId, runId } = this.#bridge.info;
      throw new SandboxContextLostError(`the sandbox context of workflow ${workflowId} (run ${runId}) was given up after another run deadlocked in it or defined a global that cannot be deleted; replay the run`);
    }
    this.#shared.swapIn(this.#globals);
    this.#runtime.enter();
    try {
      return step();
    } finally {
      this.#shared.swapOut(this.#globals);
    }
  }
}

function runBounded(step: () => unknown, bridge: HostBridge, timeoutMs: number, what: string, shared?: SharedContext): unknown {
  try {
    return step();
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
    throw deadlocked(bridge, timeoutMs, what, shared);
  }
}

/** The error of a run whose code the watchdog interrupted; its context (if any) is given up. */
function deadlocked(bridge: HostBridge, timeoutMs: number, what: string, shared?: SharedContext): DeadlockError {
  if (shared) shared.lost = true;
  const { workflowType, workflowId, runId } = bridge.info;
  return new DeadlockError(
    `workflow ${workflowType} (workflowId ${workflowId}, runId ${runId}) did not yield within ${timeoutMs} ms while ${what} ` +
      '(deadlock detector): workflow code must not loop or block synchronously; do heavy work in an activity',
  );
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
