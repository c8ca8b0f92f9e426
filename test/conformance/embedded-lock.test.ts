import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { topicCatalog } from '../../topics/catalog.js';
import { TopicMismatchError } from '../../topics/errors.js';
import { openLog } from '../../topics/log/open-log.js';
import { ensureTopics } from '../../topics/topic-setup.js';

const run = promisify(execFile);

test('a second process cannot open an embedded data directory that is in use, and is told why', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-lock-'));
  const log = await openLog({ kind: 'embedded', directory });
  try {
    const script = `
      import { openLog } from ${JSON.stringify(new URL('../../topics/log/open-log.ts', import.meta.url).href)};
      try { await openLog({ kind: 'embedded', directory: ${JSON.stringify(directory)} }); console.log('OPENED'); }
      catch (e) { console.log(e.code + ': ' + e.message); }`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    assert.match(stdout, /^DATA_DIRECTORY_LOCKED: the data directory .* is in use by another Logbook process/);
  } finally {
    await log.close();
    await rm(directory, { recursive: true, force: true });
  }
});

test('the embedded log keeps the catalog across restarts and refuses a different shard count', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-topics-'));
  try {
    const first = await openLog({ kind: 'embedded', directory });
    await ensureTopics(first.admin, topicCatalog({ shards: 4 }));
    await first.close();
    const second = await openLog({ kind: 'embedded', directory });
    await ensureTopics(second.admin, topicCatalog({ shards: 4 }));
    await assert.rejects(ensureTopics(second.admin, topicCatalog({ shards: 2 })), TopicMismatchError);
    await second.close();
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
