/**
 * A real headless Chromium for the browser tests: Debian's `chromium` package (installed with
 * apt-get when missing), driven by playwright-core. Started with the flags this machine's closed
 * network needs (no background networking, no component updates).
 * @module
 */
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';

const run = promisify(execFile);
const EXECUTABLE = '/usr/bin/chromium';

/** Installs Debian's chromium unless it is there. */
async function ensureChromium(): Promise<void> {
  if (await access(EXECUTABLE).then(() => true, () => false)) return;
  const install = () => run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    await install();
  } catch {
    // Package lists may be stale on a fresh machine: refresh them once.
    try {
      await run('apt-get', ['update'], { timeout: 300_000 });
      await install();
    } catch (error) {
      throw new Error(`Chromium is not at ${EXECUTABLE} and apt-get could not install Debian's chromium package (${(error as Error).message}); install it and run the tests again`);
    }
  }
}

/** A headless Chromium; close it when done. */
export async function launchChromium(): Promise<Browser> {
  await ensureChromium();
  return chromium.launch({
    executablePath: EXECUTABLE,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
