import { randomBytes, randomInt } from 'node:crypto';
import { IP, requireNetns, runIp } from './runIp.js';
import { waitFor } from '../waitFor.js';

/** One machine of a test network: a network namespace joined to the network's bridge by a veth pair. */
export interface Host {
  /** What the test calls it: `postgres`, `worker-1`. */
  name: string;
  namespace: string;
  /** Its one address on the network, where its servers listen and from which it connects. */
  address: string;
  /** The command that runs the rest of its arguments on this host (`ip netns exec NS`), for spawn. */
  exec: readonly string[];
}

/** A private /24 on a bridge of its own, with hosts on it; nothing routes it anywhere else. */
export interface Network {
  /** `fs` and six hex digits, random per network: the start of every namespace and interface name it makes. */
  id: string;
  /** `10.231.N.0/24`, N random among those this machine does not use. */
  subnet: string;
  /** The bridge's address: this process, in the root namespace, reaches every host from it. */
  gateway: string;
  hosts: readonly Host[];
  /** The host of that name; throws for a name the network was not made with. */
  host(name: string): Host;
  /** Ends every process still running on its hosts, then deletes its namespaces, veth pairs and bridge. Safe to call twice. */
  remove(): Promise<void>;
}

/** 10.231.0.0/16: private, and the third byte leaves room for many networks at once. */
const FIRST_BYTES = '10.231';
/** Hosts take .2 on; .1 is the bridge. A veth's name (at most 15 bytes) counts hosts in two digits. */
const MAX_HOSTS = 99;
const QUIT_TIMEOUT_MS = 10_000;

/**
 * Makes a network of namespaces for `hostNames`: a bridge in the root namespace holding the
 * network's first address, and each host a namespace with loopback up and one end of a veth pair
 * whose other end is on the bridge. No default route, no NAT: its traffic never leaves the machine.
 * What it made is removed again if any step fails. Needs root and iproute2 (see requireNetns).
 */
export async function createNetwork(hostNames: readonly string[]): Promise<Network> {
  if (hostNames.length === 0 || hostNames.length > MAX_HOSTS) throw new Error(`a network has 1 to ${MAX_HOSTS} hosts, not ${hostNames.length}`);
  if (new Set(hostNames).size !== hostNames.length) throw new Error(`host names must differ: ${hostNames.join(', ')}`);
  await requireNetns();
  const id = `fs${randomBytes(3).toString('hex')}`;
  const net = `${FIRST_BYTES}.${await unusedThirdByte()}`;
  const bridge = `${id}br`;
  const hosts = hostNames.map((name, index): Host => {
    const namespace = `${id}-${name}`;
    return { name, namespace, address: `${net}.${index + 2}`, exec: [IP, 'netns', 'exec', namespace] };
  });
  /** The bridge's end of each host's veth pair. */
  const vethOf = (index: number): string => `${id}h${index}`;
  let removing: Promise<void> | undefined;
  const network: Network = {
    id,
    subnet: `${net}.0/24`,
    gateway: `${net}.1`,
    hosts,
    host(name) {
      const host = hosts.find((candidate) => candidate.name === name);
      if (host === undefined) throw new Error(`network ${id} has no host ${name} (it has ${hostNames.join(', ')})`);
      return host;
    },
    remove: () => (removing ??= removeNetwork(bridge, hosts, vethOf)),
  };
  try {
    await runIp(['link', 'add', bridge, 'type', 'bridge']);
    await runIp(['addr', 'add', `${network.gateway}/24`, 'dev', bridge]);
    await runIp(['link', 'set', bridge, 'up']);
    for (const [index, host] of hosts.entries()) await addHost(host, bridge, vethOf(index), `${id}n${index}`);
  } catch (error) {
    await network.remove().catch(() => undefined);
    throw error;
  }
  return network;
}

/** A namespace whose veth end `inside` holds the host's address, and whose other end `outside` is on the bridge. */
async function addHost(host: Host, bridge: string, outside: string, inside: string): Promise<void> {
  await runIp(['netns', 'add', host.namespace]);
  await runIp(['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', host.namespace]);
  await runIp(['link', 'set', outside, 'master', bridge, 'up']);
  await runIp(['-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', inside]);
  await runIp(['-n', host.namespace, 'link', 'set', inside, 'up']);
  // Loopback too: a process's own ports (a worker's health endpoint) stay on 127.0.0.1.
  await runIp(['-n', host.namespace, 'link', 'set', 'lo', 'up']);
}

/** A third byte for 10.231.N.0/24 that no address or route of this machine uses, so two networks at once never share one. */
async function unusedThirdByte(): Promise<number> {
  const used = `${await runIp(['-4', '-o', 'addr', 'show'])}\n${await runIp(['-4', 'route', 'show'])}`;
  const free = Array.from({ length: 254 }, (_, n) => n + 1).filter((n) => !used.includes(`${FIRST_BYTES}.${n}.`));
  if (free.length === 0) throw new Error(`every ${FIRST_BYTES}.N.0/24 is in use on this machine`);
  return free[randomInt(free.length)]!;
}

/**
 * Every process on the network's hosts is this test's (its servers and their children); whatever
 * a test left running is killed by pid, so that the namespaces can go. A veth pair is deleted from
 * the bridge's end, at once (a namespace's deletion takes its interfaces with it only later). Every
 * step is tried; the first failure is thrown after.
 */
async function removeNetwork(bridge: string, hosts: readonly Host[], vethOf: (index: number) => string): Promise<void> {
  const namespaces = new Set((await runIp(['netns', 'list'])).split('\n').map((line) => line.split(' ')[0]));
  const links = await runIp(['-o', 'link', 'show']);
  const hasLink = (name: string): boolean => links.includes(` ${name}:`) || links.includes(` ${name}@`);
  const failures: unknown[] = [];
  const attempt = (step: Promise<unknown>): Promise<unknown> => step.catch((error: unknown) => failures.push(error));
  for (const [index, host] of hosts.entries()) {
    if (namespaces.has(host.namespace)) await attempt(killProcessesOf(host));
    if (hasLink(vethOf(index))) await attempt(runIp(['link', 'del', vethOf(index)]));
    if (namespaces.has(host.namespace)) await attempt(runIp(['netns', 'del', host.namespace]));
  }
  if (hasLink(bridge)) await attempt(runIp(['link', 'del', bridge]));
  if (failures.length > 0) throw failures[0];
}

async function killProcessesOf(host: Host): Promise<void> {
  const pids = async (): Promise<number[]> => (await runIp(['netns', 'pids', host.namespace])).split('\n').filter((line) => line.trim() !== '').map(Number);
  for (const pid of await pids()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  await waitFor(`the processes on ${host.name} to end`, async () => (await pids()).length === 0, QUIT_TIMEOUT_MS);
}
