import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

export interface SimulatorSpeedOptions {
  /** How long to fetch, after one warm-up page per connection. Default 5. */
  seconds?: number;
  /** Concurrent keep-alive connections, each fetching one page at a time. Default 2. */
  connections?: number;
  /** Txs per page. Default 1000. */
  limit?: number;
}

export interface SimulatorSpeed {
  pagesPerS: number;
  mbPerS: number;
  recordsPerS: number;
}

interface ReadyLine {
  explorerBaseUrl: string;
  apiKey: string;
  hotAddress: string;
}

interface TxPage {
  data: { result: { blockNumber: number }[] };
}

const RUN_SIMULATOR = fileURLToPath(new URL('./runSimulator.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Frozen head, so every connection reads a fixed range. */
const HEAD = 120_000;

/**
 * Starts the simulator in a child process and reads txlist pages of the hot address as a client
 * would: page 1 of a sliding startblock, every body parsed. The figure is the upstream's ceiling on
 * this machine, with the client taking its share of the cores.
 */
export async function measureSimulatorSpeed(options: SimulatorSpeedOptions = {}): Promise<SimulatorSpeed> {
  const { seconds = 5, connections = 2, limit = 1000 } = options;
  const child = spawn(process.execPath, ['--import', 'tsx', RUN_SIMULATOR, '--block-interval-ms', '0', '--initial-head', String(HEAD)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const ready = await firstLine(child.stdout);
    const pool = new Pool(ready.explorerBaseUrl, { connections, pipelining: 1 });
    const fetchPage = async (startblock: number): Promise<{ bytes: number; records: number; nextStart: number }> => {
      const response = await pool.request({
        method: 'GET',
        path: `/api?module=account&action=txlist&q=${ready.hotAddress}&startblock=${startblock}&page=1&limit=${limit}&sort=asc`,
        headers: { authorization: `Bearer ${ready.apiKey}` },
      });
      const text = await response.body.text();
      const txs = (JSON.parse(text) as TxPage).data.result;
      const last = txs.at(-1)?.blockNumber ?? HEAD;
      return { bytes: Buffer.byteLength(text), records: txs.length, nextStart: last >= HEAD ? 0 : last + 1 };
    };
    const totals = { pages: 0, bytes: 0, records: 0 };
    const deadline = { at: 0 };
    const worker = async (index: number): Promise<void> => {
      let start = Math.floor((HEAD / connections) * index);
      start = (await fetchPage(start)).nextStart;
      while (performance.now() < deadline.at) {
        const page = await fetchPage(start);
        totals.pages++;
        totals.bytes += page.bytes;
        totals.records += page.records;
        start = page.nextStart;
      }
    };
    const begin = performance.now();
    deadline.at = begin + seconds * 1000;
    await Promise.all(Array.from({ length: connections }, (_, index) => worker(index)));
    const elapsedS = (performance.now() - begin) / 1000;
    await pool.close();
    return { pagesPerS: totals.pages / elapsedS, mbPerS: totals.bytes / 1e6 / elapsedS, recordsPerS: totals.records / elapsedS };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function firstLine(stream: NodeJS.ReadableStream): Promise<ReadyLine> {
  for await (const line of createInterface({ input: stream })) return JSON.parse(line) as ReadyLine;
  throw new Error('The simulator exited before printing its URLs');
}
