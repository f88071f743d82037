import type { EndpointName, FaultsInput } from '../../src/simulator/control/faults.js';
import type { EndpointStats } from '../../src/simulator/control/RequestStats.js';

/**
 * The admin endpoint of a simulator in another process (`feedsync simulate`), as a test or the
 * bench drives it: what `Simulator.setFaults`, `resetStats` and `stats` do in-process.
 */
async function admin<T>(adminUrl: string, what: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${adminUrl}${path}`, init);
  if (!response.ok) throw new Error(`the simulator refused to ${what}: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

/** Replaces an endpoint's faults (`PUT /faults/<endpoint>`): `{latencyMs: 50}` delays every answer, `{}` turns every fault off. */
export async function putFaults(adminUrl: string, endpoint: EndpointName, faults: FaultsInput): Promise<void> {
  await admin(adminUrl, `set the ${endpoint}'s faults`, `/faults/${endpoint}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
}

/** Forgets every request counted so far (`POST /stats/reset`). */
export async function resetStats(adminUrl: string): Promise<void> {
  await admin(adminUrl, 'reset its stats', '/stats/reset', { method: 'POST' });
}

/** The requests an endpoint has had (`GET /stats`): their count, most in any second and arrival times, on the simulator's clock. */
export async function readStats(adminUrl: string, endpoint: EndpointName): Promise<EndpointStats> {
  return (await admin<Record<EndpointName, EndpointStats>>(adminUrl, 'report its stats', '/stats'))[endpoint];
}
