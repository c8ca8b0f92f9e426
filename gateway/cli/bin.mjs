#!/usr/bin/env node
// The `logbook` command: runs the TypeScript CLI through tsx (a dependency), so `npx logbook …`
// works in the repository and from an installed package without a build step.
import { register } from 'tsx/esm/api';

register();
const { runLogbook } = await import('./logbook.ts');
const code = await runLogbook(process.argv.slice(2));
// start-dev keeps running (its server holds the process); every other command ends here.
if (code !== 0 || !process.argv.slice(2).includes('start-dev')) process.exitCode = code;
