import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { isRoot, runCommand } from '../../src/localstack/processes.js';

/** Debian's Chromium, where its package puts it. */
const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a headless Chromium as root on a machine without a network: no sandbox (root), and
 * none of its background connections, which a closed network refuses many at a time.
 */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Finds Debian's Chromium, installing its package when running as root (as on a fresh CI machine). */
async function ensureChromium(): Promise<string> {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const advice = 'Install it with `apt-get install -y chromium` (the browser tests drive Debian\'s Chromium through playwright-core).';
  if (!isRoot()) throw new Error(`${CHROMIUM} was not found. ${advice}`);
  const install = await runCommand('sh', ['-c', 'apt-get install -y chromium || (apt-get update && apt-get install -y chromium)'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (install.code !== 0 || !existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} was not found and apt-get could not install it. ${advice}\n${install.output.slice(-2000)}`);
  return CHROMIUM;
}

/** A headless Chromium; close it when done. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await ensureChromium(), args: FLAGS });
}
