import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withPrefix } from '../../../src/localstack/processes.js';
import type { Simulator } from '../../../src/simulator/startSimulator.js';
import { waitFor } from '../waitFor.js';
import type { Host } from './createNetwork.js';

/** The one JSON line `feedsync simulate --json` prints once it listens. */
export type SimulatorUrls = Pick<Simulator, 'musicBaseUrl' | 'explorerBaseUrl' | 'webhookBaseUrl' | 'apiKey' | 'webhookUuid' | 'adminUrl' | 'hotAddress'>;

export interface HostSimulator {
  urls: SimulatorUrls;
  pid: number;
  /** SIGTERM, and its exit. */
  stop(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
/** What is kept of its output for an error message: the start of it says why it did not start. */
const KEPT_OUTPUT_CHARS = 20_000;

/**
 * `feedsync simulate --json --host <its address> <args>` on `host`, from the sources: its URLs
 * reach it from every host of the network and from this process. Outside vitest too (the bench).
 */
export async function startSimulatorOn(host: Host, args: readonly string[] = []): Promise<HostSimulator> {
  const cli = ['--import', 'tsx', 'src/cli/main.ts', 'simulate', '--json', '--host', host.address, ...args];
  const child = spawn(...withPrefix(host.exec, process.execPath, cli), { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer): void => {
    if (output.length < KEPT_OUTPUT_CHARS) output += chunk.toString();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const line = await waitFor(`the simulator on ${host.name} to print its URLs`, () => {
      if (child.exitCode !== null) throw new Error(`the simulator on ${host.name} exited (code ${child.exitCode}):\n${output}`);
      return output.split('\n').find((candidate) => candidate.startsWith('{') && candidate.endsWith('}'));
    }, READY_TIMEOUT_MS);
    return { urls: JSON.parse(line) as SimulatorUrls, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
