/**
 * Bundles a workflow module with the workflow runtime into one script, once per worker; every
 * new run evaluates that script in its own sandbox. Host side: never imported by workflow code.
 *
 * The bundle is an esbuild IIFE for a neutral platform: TypeScript is compiled by esbuild, Node
 * built-ins are refused with an error naming the import (workflow code cannot do I/O — that is
 * what activities are for), and the generated entry imports the runtime *before* the user's
 * module, so module-level code already sees the deterministic `Date` and `Math.random`.
 * @module
 */
import { builtinModules } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import { LogbookError } from '../../topics/errors.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import { RUN_FACTORY_GLOBAL } from './bridge.js';
import { sharedAsyncLocalStorage, WorkflowSandbox } from './sandbox.js';

/** Workflow code compiled for the sandbox. Create with {@link bundleWorkflowCode}; share across runs. */
export interface WorkflowBundle {
  /** The module the bundle was built from (absolute). */
  readonly workflowsPath: string;
  /** The bundled JavaScript. */
  readonly code: string;
  /** `code` compiled once; run in each shared context, it defines the function that evaluates the bundle for a run. */
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

async function build(workflowsPath: string): Promise<string> {
  const entry =
    `import { registerWorkflows } from ${JSON.stringify(runtimeEntry)};\n` +
    `import * as workflows from ${JSON.stringify(workflowsPath)};\n` +
    'registerWorkflows(workflows);\n';
  try {
    const result = await esbuild.build({
      stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: 'logbook-workflow-entry.ts', loader: 'ts' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      target: 'es2022',
      keepNames: true,
      logLevel: 'silent',
      plugins: [refuseNodeBuiltins],
    });
    // A function the sandbox calls once per run, in a context the runs share: each run gets fresh
    // module state while the code is compiled once.
    return `Object.defineProperty(globalThis, ${JSON.stringify(RUN_FACTORY_GLOBAL)}, { value: function () {\n${result.outputFiles[0]!.text}\n}, configurable: true });\n`;
  } catch (err) {
    const errors = (err as { errors?: esbuild.Message[] }).errors;
    if (errors === undefined) throw err;
    throw new WorkflowBundleError(`cannot bundle workflow code ${workflowsPath}:\n${errors.map(describe).join('\n')}`, err);
  }
}

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
