import { startSimulator } from '../../src/simulator/startSimulator.js';
import type { SimulatorOptions } from '../../src/simulator/simulatorOptions.js';
import type { Target } from './report.js';

export interface SimulatorStart {
  /** Starts timed at each size, the two sizes taking turns. */
  starts: number;
  /** Median ms from calling startSimulator() to its URLs, at the default sizes (100,000 tracks, 120,000 blocks). */
  defaultMs: number;
  /** The same at a hundredth of those sizes. */
  hundredthMs: number;
}

/** A hundredth of the default catalogue and chain. */
const HUNDREDTH: SimulatorOptions = { music: { artists: 100, users: 10 }, chain: { initialHead: 1_200 } };
/** Records are computed when asked for, so size costs nothing at start; one made up front would multiply this ratio. */
const WANTED_RATIO = 2;

async function timedStart(options: SimulatorOptions): Promise<number> {
  const started = performance.now();
  const simulator = await startSimulator(options);
  const ms = performance.now() - started;
  await simulator.close();
  return ms;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/**
 * How long the bundled simulator takes to start in this process at its default sizes, against a
 * hundredth of them; the tests start dozens of simulators, and `feedsync simulate` one.
 */
export async function measureSimulatorStart(starts = 40): Promise<SimulatorStart> {
  // Untimed: the first start of each compiles its code.
  await timedStart({});
  await timedStart(HUNDREDTH);
  const defaults: number[] = [];
  const hundredths: number[] = [];
  for (let turn = 0; turn < starts; turn++) {
    defaults.push(await timedStart({}));
    hundredths.push(await timedStart(HUNDREDTH));
  }
  return { starts, defaultMs: median(defaults), hundredthMs: median(hundredths) };
}

const ratioOf = (start: SimulatorStart): number => Number((start.defaultMs / start.hundredthMs).toFixed(2));

export function simulatorStartTarget(start: SimulatorStart): Target {
  const value = ratioOf(start);
  return { name: 'simulator start, default sizes vs a hundredth', wanted: `<= ${WANTED_RATIO}`, value, met: value <= WANTED_RATIO };
}

/** The report's row: # , measurement, size, result, note. */
export function simulatorStartRow(start: SimulatorStart): string[] {
  return ['-', 'simulator start, default sizes vs a hundredth', `${start.starts} starts each`, `${start.defaultMs.toFixed(1)} ms vs ${start.hundredthMs.toFixed(1)} ms (medians)`, `x${ratioOf(start)}`];
}
