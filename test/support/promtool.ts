import { isRoot, runCommand } from '../../src/localstack/processes.js';

const ADVICE = 'Install it with `apt-get install -y --no-install-recommends prometheus` (Debian\'s prometheus package has promtool), or put promtool from a Prometheus release on PATH.';

/**
 * Runs promtool, installing Debian's prometheus package first where it is missing and this runs as
 * root (as on a fresh CI machine), without its recommends and without the server it would start.
 */
export async function promtool(...args: string[]): Promise<{ code: number | null; output: string }> {
  if ((await runCommand('sh', ['-c', 'command -v promtool'])).code !== 0) await installPromtool();
  return runCommand('promtool', args);
}

async function installPromtool(): Promise<void> {
  if (!isRoot()) throw new Error(`promtool was not found. ${ADVICE}`);
  const install = await runCommand(
    'sh',
    ['-c', 'apt-get install -y --no-install-recommends prometheus || (apt-get update && apt-get install -y --no-install-recommends prometheus); systemctl disable --now prometheus >/dev/null 2>&1; command -v promtool'],
    { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
  );
  if (install.code !== 0) throw new Error(`promtool was not found and apt-get could not install it. ${ADVICE}\n${install.output.slice(-2000)}`);
}
