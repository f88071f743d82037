/**
 * `tsx test/bench/runHostsScaling.ts [VALUES]`: the bench's worker hosts phase alone (default 100
 * runs a tick), its runs/s at 1, 2 and 4 hosts and their ratios printed; as root, see hostsScaling.ts.
 */
import { hostsScalingOf, measureHostsScaling } from './hostsScaling.js';
import { say } from './modeArgs.js';

const values = Number(process.argv[2] ?? 100);
if (!Number.isInteger(values) || values < 1) throw new Error(`VALUES must be a whole number of runs, not ${process.argv[2]}`);
say(`worker hosts: a fan-out tick of ${values} values at 1, 2 and 4 hosts…`);
const scaling = await measureHostsScaling(values, say);
say(`hostsScaling2 ${hostsScalingOf(scaling, 2)}, hostsScaling4 ${hostsScalingOf(scaling, 4)}`);
