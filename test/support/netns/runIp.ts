import { existsSync } from 'node:fs';
import { isRoot, runCommand } from '../../../src/localstack/processes.js';

/** iproute2's `ip`; /usr/sbin is not on every PATH a test runs with. */
export const IP = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((path) => existsSync(path)) ?? 'ip';

/** Runs `ip <args>` and gives its output; fails with the command and what it said. */
export async function runIp(args: readonly string[]): Promise<string> {
  const result = await runCommand(IP, [...args]).catch((error: Error) => ({ code: null, output: error.message }));
  if (result.code !== 0) throw new Error(`ip ${args.join(' ')} failed (exit ${String(result.code)}): ${result.output.trim()}`);
  return result.output;
}

/**
 * Fails, saying why and what to do, unless this process can make network namespaces: root, and
 * iproute2's `ip netns`. Tests that need them fail rather than skip, so CI (root) never passes by
 * running nothing.
 */
export async function requireNetns(): Promise<void> {
  if (!isRoot()) throw new Error('Network namespace tests must run as root (they create namespaces, veth pairs and a bridge); run them as root, as CI does.');
  await runIp(['netns', 'list']).catch((error: Error) => {
    throw new Error(`\`ip netns\` is unavailable: install iproute2 (\`apt-get install -y iproute2\`, as .ci/run does). ${error.message}`);
  });
}
