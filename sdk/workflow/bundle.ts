/**
 * Bundles a workflow module with the workflow runtime into one script, once per worker. Run in a
 * sandbox context, the script evaluates the runtime — the workflow API's modules — once for every
 * run of the context, and leaves a function that evaluates the user's modules afresh for each new
 * run. Host side: never imported by workflow code.
 *
 * Two esbuild IIFEs for a neutral platform: the runtime's (built once per process) and the user's,
 * in which every import of a runtime module is answered by the context's one instance of it, so
 * `proxyActivities` or `ApplicationFailure` are the same objects in every run. TypeScript is
 * compiled by esbuild, Node built-ins are refused with an error naming the import (workflow code
 * cannot do I/O — that is what activities are for), and a run's runtime is started *before* the
 * user's module is evaluated, so module-level code already sees the deterministic `Date` and
 * `Math.random`.
 * @module
 */
import { builtinModules } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import { LogbookError } from '../../topics/errors.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import { RUN_FACTORY_GLOBAL, SHARED_RUNTIME_GLOBAL } from './bridge.js';
import type { SharedRuntime } from './runtime-entry.js';
import { sharedAsyncLocalStorage, WorkflowSandbox } from './sandbox.js';

/** Workflow code compiled for the sandbox. Create with {@link bundleWorkflowCode}; share across runs. */
export interface WorkflowBundle {
  /** The module the bundle was built from (absolute). */
  readonly workflowsPath: string;
  /** The bundled JavaScript. */
  readonly code: string;
  /** `code` compiled once; run in each shared context, it evaluates the runtime and defines the function that evaluates the user's modules for a run. */
  readonly script: vm.Script;
  /** The workflow types: every function the module exports. */
  readonly workflowTypes: readonly string[];
}

/** Options of {@link bundleWorkflowCode}. */
export interface BundleOptions {
  /** Path of the module exporting the workflow functions (e.g. `examples/order/workflows.ts`). */
  workflowsPath: string;
}

/** The workflow code cannot be bundled (a Node import, a syntax error, a missing file…). */
export class WorkflowBundleError extends LogbookError {
  constructor(message: string, cause?: unknown) {
    super('WORKFLOW_BUNDLE_INVALID', message, { cause });
  }
}

const runtimeEntry = fileURLToPath(new URL('./runtime-entry.ts', import.meta.url));
const workflowApi = fileURLToPath(new URL('./index.ts', import.meta.url));
const builtins = new Set(builtinModules);

/**
 * Bundles the workflows of `workflowsPath` with the workflow runtime and checks the result
 * evaluates (module-level code runs once here, in a throwaway sandbox).
 *
 * @throws WorkflowBundleError listing every problem with its file and line
 * @example
 * const bundle = await bundleWorkflowCode({ workflowsPath: 'examples/order/workflows.ts' });
 */
export async function bundleWorkflowCode(options: BundleOptions): Promise<WorkflowBundle> {
  const workflowsPath = isAbsolute(options.workflowsPath) ? options.workflowsPath : resolve(options.workflowsPath);
  const code = await build(workflowsPath);
  const script = new vm.Script(code, { filename: `logbook-workflow-bundle:${workflowsPath}` });
  const workflowTypes = probeWorkflowTypes(script, workflowsPath);
  return { workflowsPath, code, script, workflowTypes };
}

/**
 * A bundle from code {@link bundleWorkflowCode} built before (in a build step, written to a file):
 * the code holds the runtime and the workflows, so it runs as it was built.
 * @param source names the bundle in stack traces and errors (the file it was read from)
 * @throws WorkflowBundleError when the code does not evaluate or registers no workflow
 */
export function workflowBundleFromCode(code: string, source = 'prebuilt workflow bundle'): WorkflowBundle {
  if (typeof code !== 'string' || !code.includes(RUN_FACTORY_GLOBAL)) {
    throw new WorkflowBundleError(`${source} is not a workflow bundle made by bundleWorkflowCode`);
  }
  let script: vm.Script;
  try {
    script = new vm.Script(code, { filename: `logbook-workflow-bundle:${source}` });
  } catch (err) {
    throw new WorkflowBundleError(`${source} does not compile: ${(err as Error).message}`, err);
  }
  return { workflowsPath: source, code, script, workflowTypes: probeWorkflowTypes(script, source) };
}

async function build(workflowsPath: string): Promise<string> {
  // A failed build is not kept: the next bundle tries again.
  const runtime = await (sharedRuntimeBuild ??= buildSharedRuntime().catch((err: unknown) => {
    sharedRuntimeBuild = undefined;
    throw err;
  }));
  const entry = `import * as workflows from ${JSON.stringify(workflowsPath)};\n${sharedRuntimeGlobal}.registerWorkflows(workflows);\n`;
  const user = await esbuildOrExplain(workflowsPath, {
    stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: 'logbook-workflow-entry.ts', loader: 'ts' },
    plugins: [refuseNodeBuiltins, importSharedModules(runtime.modules, workflowsPath)],
  });
  // The runtime runs once per context; the function, called once per run, starts the run and
  // evaluates the user's modules afresh, so each run gets its own module state.
  return (
    `${runtime.code}\n` +
    `Object.defineProperty(globalThis, ${JSON.stringify(RUN_FACTORY_GLOBAL)}, { value: function () {\n${sharedRuntimeGlobal}.startRun();\n${user}\n}, writable: false, configurable: false });\n`
  );
}

const sharedRuntimeGlobal = `globalThis[${JSON.stringify(SHARED_RUNTIME_GLOBAL)}]`;

/** The runtime's IIFE and its modules by absolute path, the same for every bundle. */
interface SharedRuntimeBuild {
  readonly code: string;
  readonly modules: ReadonlyMap<string, SharedModule>;
}

/** A runtime module: its number in {@link SharedRuntime.modules} and its export names. */
interface SharedModule {
  readonly index: number;
  readonly exports: readonly string[];
}

let sharedRuntimeBuild: Promise<SharedRuntimeBuild> | undefined;

/**
 * Builds the runtime once per process: first to learn its modules (the runtime entry and the
 * workflow API with everything they import), then as an IIFE that publishes each module's
 * namespace under its number. Exported functions and classes, their prototypes, and exported plain
 * objects are frozen: the runs of a context share them.
 */
async function buildSharedRuntime(): Promise<SharedRuntimeBuild> {
  // Metafile paths are relative to the working directory: one fixed here, not the process's at the time.
  const workingDir = process.cwd();
  const probe = await esbuild.build({
    ...common,
    absWorkingDir: workingDir,
    stdin: { contents: `import ${JSON.stringify(runtimeEntry)};\nimport ${JSON.stringify(workflowApi)};\n`, resolveDir: workingDir, loader: 'ts' },
    metafile: true,
    plugins: [refuseNodeBuiltins],
  });
  const paths = Object.keys(probe.metafile!.inputs).filter((input) => !input.startsWith('<')).map((input) => resolve(workingDir, input));
  // Without them the user's code would bundle a copy of the API of its own, whose failures the shared runtime would not recognise.
  for (const required of [runtimeEntry, workflowApi]) {
    if (!paths.includes(required)) throw new Error(`the workflow runtime's build did not list ${required} among its modules`);
  }
  const entry =
    `import { sharedRuntime } from ${JSON.stringify(runtimeEntry)};\n` +
    paths.map((path, index) => `import * as m${index} from ${JSON.stringify(path)};\n`).join('') +
    `const freeze = (namespace) => { for (const value of Object.values(namespace)) { if (typeof value === 'function') { Object.freeze(value); if (value.prototype) Object.freeze(value.prototype); } else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) Object.freeze(value); } };\n` +
    // Frozen only once published: the runtime entry's own namespace holds `sharedRuntime`.
    `sharedRuntime.modules = Object.freeze([${paths.map((_, index) => `m${index}`).join(', ')}]);\n` +
    `sharedRuntime.modules.forEach(freeze);\n` +
    `Object.defineProperty(globalThis, ${JSON.stringify(SHARED_RUNTIME_GLOBAL)}, { value: Object.freeze(sharedRuntime), enumerable: false, writable: false, configurable: false });\n`;
  const code = await esbuildOrExplain(runtimeEntry, {
    stdin: { contents: entry, resolveDir: workingDir, sourcefile: 'logbook-runtime-entry.ts', loader: 'ts' },
    plugins: [refuseNodeBuiltins],
  });
  // Each module's export names, read from one evaluation: the user's bundle binds them once per run.
  const scratch = vm.createContext({});
  vm.runInContext(code, scratch);
  const published = (scratch as Record<string, SharedRuntime>)[SHARED_RUNTIME_GLOBAL]!.modules as ReadonlyArray<Record<string, unknown>>;
  return { code, modules: new Map(paths.map((path, index) => [path, { index, exports: Object.keys(published[index]!) }])) };
}

const common = {
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2022',
  keepNames: true,
  logLevel: 'silent',
} as const satisfies esbuild.BuildOptions;

async function esbuildOrExplain(what: string, options: Pick<esbuild.BuildOptions, 'stdin' | 'plugins'>): Promise<string> {
  try {
    const result = await esbuild.build({ ...common, ...options });
    return result.outputFiles[0]!.text;
  } catch (err) {
    const errors = (err as { errors?: esbuild.Message[] }).errors;
    if (errors === undefined) throw err;
    throw new WorkflowBundleError(`cannot bundle workflow code ${what}:\n${errors.map(describe).join('\n')}`, err);
  }
}

/**
 * Answers the user's imports of a runtime module with the context's one instance of it (the
 * user's own module is always evaluated per run, even when it is a runtime module itself).
 */
function importSharedModules(modules: ReadonlyMap<string, SharedModule>, workflowsPath: string): esbuild.Plugin {
  return {
    name: 'logbook-shared-runtime-modules',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === resolving) return undefined;
        const resolved = await pluginBuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: resolving });
        const shared = resolved.errors.length === 0 ? modules.get(resolved.path) : undefined;
        if (shared === undefined || resolved.path === workflowsPath) return undefined;
        return { path: resolved.path, namespace: 'logbook-shared', pluginData: shared };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'logbook-shared' }, (args) => ({ contents: sharedModuleShim(args.pluginData as SharedModule), loader: 'js' }));
    },
  };
}

/** An ES module that re-exports a runtime module's instance (plain bindings, no interop copy per run). */
function sharedModuleShim({ index, exports }: SharedModule): string {
  // Every name as a string: `default` and names that are no identifiers alike.
  const bindings = exports.map((name, i) => `const e${i} = shared[${JSON.stringify(name)}];\n`).join('');
  const list = exports.map((name, i) => `e${i} as ${JSON.stringify(name)}`).join(', ');
  return `const shared = ${sharedRuntimeGlobal}.modules[${index}];\n${bindings}export { ${list} };\n`;
}

/** Marks the plugin's own resolution of a path, so it does not answer itself. */
const resolving = Symbol('resolving');

const refuseNodeBuiltins: esbuild.Plugin = {
  name: 'logbook-refuse-node-builtins',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[a-z_:][a-z0-9_/:]*$/ }, (args) => {
      const name = args.path.replace(/^node:/, '').split('/')[0]!;
      if (!args.path.startsWith('node:') && !builtins.has(name)) return undefined;
      return {
        errors: [
          {
            text:
              `workflow code cannot import the Node module "${args.path}": workflows run in a deterministic ` +
              'sandbox without I/O. Move this work into an activity (import activity types with `import type`).',
          },
        ],
      };
    });
  },
};

function describe(message: esbuild.Message): string {
  const where = message.location ? `${message.location.file}:${message.location.line}:${message.location.column + 1}: ` : '';
  const line = message.location?.lineText ? `\n    ${message.location.lineText.trim()}` : '';
  return `  ${where}${message.text}${line}`;
}

function probeWorkflowTypes(script: vm.Script, workflowsPath: string): string[] {
  try {
    const sandbox = WorkflowSandbox.create(
      { script },
      {
        info: { namespace: 'probe', workflowId: 'probe', runId: 'probe', workflowType: 'probe', taskQueue: 'probe', attempt: 1, startTimeMs: 0, firstExecutionRunId: 'probe', continuedFromExecutionRunId: null, memo: {} },
        prngSeed: 0,
        encode: (value) => defaultDataConverter.toPayload(value),
        log: () => undefined,
        asyncLocalStorage: sharedAsyncLocalStorage,
      },
      { deadlockTimeoutMs: 5_000 },
    );
    const types = sandbox.workflowTypes();
    sandbox.dispose();
    return types;
  } catch (err) {
    throw new WorkflowBundleError(`workflow code ${workflowsPath} fails when evaluated: ${(err as Error).message}`, err);
  }
}
