import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { bundleWorkflowCode, WorkflowBundleError } from './bundle.js';

const testWorkflows = (name: string) => fileURLToPath(new URL(`../replay/test-workflows/${name}`, import.meta.url));

test('a workflow module is bundled with the runtime and its exported functions become the workflow types', async () => {
  const bundle = await bundleWorkflowCode({ workflowsPath: testWorkflows('workflows.ts') });
  assert.ok(bundle.workflowTypes.includes('sequential'));
  assert.ok(!bundle.workflowTypes.includes('approve'), 'a signal definition is not a workflow');
  // esbuild wraps a CommonJS dependency (the ms library) in a `__require()` of its own; a module
  // loaded at run time would be a require of a name.
  assert.doesNotMatch(bundle.code, /require\(\s*["'`]|from "node:/, 'no Node module reaches the bundle');
});

test('workflow code importing a Node module fails to bundle with an error naming the import and the line', async () => {
  await assert.rejects(bundleWorkflowCode({ workflowsPath: testWorkflows('node-import-workflows.ts') }), (err: unknown) => {
    assert.ok(err instanceof WorkflowBundleError);
    assert.equal(err.code, 'WORKFLOW_BUNDLE_INVALID');
    assert.match(err.message, /node-import-workflows\.ts:5:\d+: workflow code cannot import the Node module "node:fs"/);
    assert.match(err.message, /Move this work into an activity/);
    return true;
  });
});

test('a missing workflow module is a bundle error', async () => {
  await assert.rejects(bundleWorkflowCode({ workflowsPath: testWorkflows('does-not-exist.ts') }), WorkflowBundleError);
});

test('the workflow API itself bundles for the sandbox (it imports nothing from Node)', async () => {
  const bundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./index.ts', import.meta.url)) });
  assert.ok(bundle.workflowTypes.includes('sleep'), 'the API module evaluates in a sandbox');
});

test('a bundle holds the workflow API once: the user\'s imports of it are bound to the instance every run of a context shares', async () => {
  const bundle = await bundleWorkflowCode({ workflowsPath: testWorkflows('workflows.ts') });
  const definitions = (name: string) => bundle.code.match(new RegExp(`__name\\(this, "${name}"\\)`, 'g'))?.length ?? 0;
  for (const name of ['ApplicationFailure', 'CancellationScope', 'Activator']) assert.equal(definitions(name), 1, `${name} is defined once`);
});
