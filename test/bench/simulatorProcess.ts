import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The JSON line `feedsync simulate --json` prints once it listens. */
export interface SimulatorUrls {
  musicBaseUrl: string;
  explorerBaseUrl: string;
  webhookBaseUrl: string;
  adminUrl: string;
  apiKey: string;
  webhookUuid: string;
  hotAddress: string;
}

export interface SimulatorProcess {
  urls: SimulatorUrls;
  pid: number;
  stop(): Promise<void>;
}

const RUN_SIMULATOR = fileURLToPath(new URL('./runSimulator.ts', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The default chain's head, frozen: every query reads a fixed range. */
export const FROZEN_HEAD = 120_000;

/**
 * Starts the bundled simulator in its own process (so it never shares an event loop with what is
 * measured) with the head frozen at {@link FROZEN_HEAD}. `nodeArgs` go to node, e.g. --cpu-prof.
 */
export async function startSimulatorProcess(extraArgs: string[] = [], nodeArgs: string[] = []): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', RUN_SIMULATOR, '--block-interval-ms', '0', '--initial-head', String(FROZEN_HEAD), ...extraArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const urls = await firstJsonLine<SimulatorUrls>(child, 'the simulator');
    return { urls, pid: child.pid!, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/**
 * Reads the first stdout line of a child that is a JSON object; fails if the child exits first.
 * Later lines are passed on to stderr, so the child never blocks on a full pipe.
 */
export function firstJsonLine<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let ready = false;
    const onExit = (code: number | null): void => reject(new Error(`${what} exited (code ${String(code)}) before it was ready`));
    child.once('exit', onExit);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (ready || !line.trim().startsWith('{')) {
        process.stderr.write(`[${what}] ${line}\n`);
        return;
      }
      ready = true;
      child.off('exit', onExit);
      try {
        resolve(JSON.parse(line) as T);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/** SIGTERM to this child (by its pid) and wait for it to exit; SIGKILL after 15 s. */
export async function stopChild(child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}
