/** `node --import ./test/support/no-engine-code.mjs …`: the process fails if it loads engine code (see `refuse-engine-modules.mjs`). */
import { register } from 'node:module';

register('./refuse-engine-modules.mjs', import.meta.url, { data: { root: new URL('../../', import.meta.url).href } });
