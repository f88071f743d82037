import type { Simulator } from '../../../src/simulator/startSimulator.js';
import { startFeedsync, type FeedsyncProcess } from '../feedsyncProcess.js';
import { waitFor } from '../waitFor.js';
import type { Host } from './createNetwork.js';

/** The one JSON line `feedsync simulate --json` prints once it listens. */
export type SimulatorUrls = Pick<Simulator, 'musicBaseUrl' | 'explorerBaseUrl' | 'webhookBaseUrl' | 'apiKey' | 'webhookUuid' | 'adminUrl' | 'hotAddress'>;

export interface HostSimulator {
  urls: SimulatorUrls;
  process: FeedsyncProcess;
  /** SIGTERM, and its exit. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/** `feedsync simulate --json --host <its address> <args>` on `host`: its URLs reach it from every host of the network. */
export async function startSimulatorOn(host: Host, args: readonly string[] = []): Promise<HostSimulator> {
  const simulator = startFeedsync(['simulate', '--json', '--host', host.address, ...args], {}, host.exec);
  const stop = async (): Promise<void> => {
    if (simulator.child.exitCode === null && simulator.child.signalCode === null) simulator.kill('SIGTERM');
    await simulator.exited;
  };
  try {
    const line = await waitFor(`the simulator on ${host.name} to print its URLs`, () => {
      if (simulator.child.exitCode !== null) throw new Error(`the simulator on ${host.name} exited (code ${simulator.child.exitCode}):\n${simulator.output()}`);
      return simulator.output().split('\n').find((candidate) => candidate.startsWith('{') && candidate.endsWith('}'));
    }, READY_TIMEOUT_MS);
    return { urls: JSON.parse(line) as SimulatorUrls, process: simulator, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
