/**
 * `promtool`, from Debian's `prometheus` package: the one on PATH, or the package's binary unpacked
 * into `.cache/prometheus` (downloaded with `apt-get download` the first time, nothing installed
 * system-wide).
 * @module
 */
import { execFile } from 'node:child_process';
import { access, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CACHE = fileURLToPath(new URL('../../.cache/prometheus/', import.meta.url));

/**
 * The path of a promtool binary.
 * @throws Error saying what failed and what to install when neither PATH nor Debian's package has one
 */
export async function promtool(): Promise<string> {
  const onPath = await run('sh', ['-c', 'command -v promtool']).then((r) => r.stdout.trim(), () => '');
  if (onPath) return onPath;
  const unpacked = join(CACHE, 'root', 'usr', 'bin', 'promtool');
  if (await access(unpacked).then(() => true, () => false)) return unpacked;
  await mkdir(CACHE, { recursive: true });
  try {
    await run('apt-get', ['download', 'prometheus'], { cwd: CACHE, timeout: 300_000 });
    const deb = (await readdir(CACHE)).find((f) => f.startsWith('prometheus_') && f.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download prometheus left no .deb');
    await run('dpkg-deb', ['-x', join(CACHE, deb), join(CACHE, 'root')], { timeout: 120_000 });
  } catch (error) {
    throw new Error(`promtool is not on PATH and Debian's prometheus package could not be fetched (${(error as Error).message}); install it (apt-get install prometheus) and run the tests again`);
  }
  return unpacked;
}
