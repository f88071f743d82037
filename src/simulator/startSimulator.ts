import { ApiKeys } from './server/ApiKeys.js';
import { Chain, HOT_ADDRESS_INDEX } from './explorer/Chain.js';
import { ChainHead } from './explorer/ChainHead.js';
import { listenEndpoint, type EndpointSpec, type RunningEndpoint } from './server/endpointServer.js';
import { DIALECT_WIRES } from './dialects/registry.js';
import type { DialectName } from './dialects/names.js';
import { explorerHandler } from './explorer/explorerEndpoint.js';
import { FaultGate } from './control/FaultGate.js';
import { ENDPOINTS, resolveFaults, type EndpointName, type Faults, type FaultsInput } from './control/faults.js';
import { adminHandler, type SimulatorControl } from './control/adminEndpoint.js';
import { uuidFromWords } from './server/hex.js';
import { MusicCatalogue } from './music/MusicCatalogue.js';
import { musicHandler } from './music/musicEndpoint.js';
import { UserHistories } from './music/UserHistories.js';
import { domainOf, hashOf } from './server/prng.js';
import type { FaultReplies } from './server/reply.js';
import { RequestStats, type EndpointStats } from './control/RequestStats.js';
import { SimulatorError } from './SimulatorError.js';
import { resolveSimulatorOptions, type SimulatorOptions } from './simulatorOptions.js';
import { WebhookLog, webhookFaultReplies, webhookHandler, type WebhookRequest } from './webhookReceiver.js';

/** A running simulator: three fake upstreams and an admin endpoint, each on its own port of one address. */
export interface Simulator {
  /** Music (Last.fm style): `GET {musicBaseUrl}/2.0/?method=...`. No trailing slash. */
  musicBaseUrl: string;
  /** Explorer (Etherscan style): `GET {explorerBaseUrl}/api?module=...&action=...`. */
  explorerBaseUrl: string;
  /** Webhook receiver: `POST {webhookBaseUrl}/<uuid>`, `GET {webhookBaseUrl}/<uuid>/requests`. */
  webhookBaseUrl: string;
  /** Admin: `/faults`, `/faults/<endpoint>`, `/stats`, `/stats/reset`, `/reset`. */
  adminUrl: string;
  /** The first valid API key. */
  apiKey: string;
  /** The wire format music and explorer speak (see SimulatorOptions.dialect). */
  dialect: DialectName;
  seed: number;
  /** A UUID derived from the seed, ready to use as a webhook path. */
  webhookUuid: string;
  /** Active address 0: party to every block, over 1,000,000 txs up to the default initial head. */
  hotAddress: string;
  /** Replaces one endpoint's faults (reseeding its decisions); throws SimulatorError('invalid_options') on bad input. */
  setFaults(endpoint: EndpointName, faults: FaultsInput): Faults;
  faults(endpoint: EndpointName): Faults;
  /** What the webhook receiver recorded for a UUID, oldest first. */
  requests(uuid: string): WebhookRequest[];
  stats(): Record<EndpointName, EndpointStats>;
  resetStats(): void;
  /** Faults back to the start-up ones, stats and webhook logs cleared. */
  reset(): void;
  /** The explorer's current head block. */
  head(): number;
  /** Closes every port and socket, hung requests included. */
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const resolved = resolveSimulatorOptions(options);
  const { seed, now } = resolved;
  const apiKeys = new ApiKeys(resolved.apiKeys, resolved.suspendedKeys);
  const wires = DIALECT_WIRES[resolved.dialect];
  const catalogue = new MusicCatalogue(seed, resolved.music);
  const chain = new Chain(seed, resolved.chain);
  const head = new ChainHead(resolved.chain.initialHead, resolved.blockIntervalMs, now());
  const webhookLog = new WebhookLog(resolved.webhook);
  const gates = mapEndpoints((endpoint, index) => new FaultGate(seed, index, resolved.faults[endpoint]));
  const stats = mapEndpoints(() => new RequestStats());

  const control: SimulatorControl = {
    faults: (endpoint) => gates[endpoint].current(),
    setFaults: (endpoint, input) => {
      const result = resolveFaults(input, now());
      if (result.ok) gates[endpoint].set(result.faults);
      return result;
    },
    stats: () => mapEndpoints((endpoint) => stats[endpoint].snapshot()),
    resetStats: () => ENDPOINTS.forEach((endpoint) => stats[endpoint].reset()),
    reset: () => {
      ENDPOINTS.forEach((endpoint) => gates[endpoint].set(resolved.faults[endpoint]));
      control.resetStats();
      webhookLog.clear();
    },
  };

  const upstream = (endpoint: EndpointName, replies: FaultReplies): EndpointSpec['upstream'] => ({
    faults: gates[endpoint],
    replies,
    stats: stats[endpoint],
  });
  const specs: EndpointSpec[] = [
    {
      handle: musicHandler({ catalogue, histories: new UserHistories(seed, catalogue), apiKeys, wire: wires.music }),
      readsBody: false,
      upstream: upstream('music', wires.music.faultReplies),
      now,
    },
    {
      handle: explorerHandler({ chain, head, apiKeys, wire: wires.explorer, now }),
      readsBody: false,
      upstream: upstream('explorer', wires.explorer.faultReplies),
      now,
    },
    { handle: webhookHandler(webhookLog, now), readsBody: true, upstream: upstream('webhook', webhookFaultReplies), now },
    { handle: adminHandler(control), readsBody: true, now },
  ];
  const [music, explorer, webhook, admin] = await listenAll(specs, resolved.host, resolved.port);

  let closing: Promise<void> | undefined;
  return {
    musicBaseUrl: music.url,
    explorerBaseUrl: explorer.url,
    webhookBaseUrl: webhook.url,
    adminUrl: admin.url,
    apiKey: resolved.apiKeys[0]!,
    dialect: resolved.dialect,
    seed,
    webhookUuid: webhookUuidOf(seed),
    hotAddress: chain.address(HOT_ADDRESS_INDEX),
    setFaults: (endpoint, input) => {
      const result = control.setFaults(endpoint, input);
      if (!result.ok) {
        const path = [`faults.${endpoint}`, result.error.path].filter((part) => part !== '').join('.');
        throw new SimulatorError('invalid_options', `Invalid faults for ${endpoint}: ${result.error.message}`, path);
      }
      return result.faults;
    },
    faults: control.faults,
    requests: (uuid) => webhookLog.requests(uuid),
    stats: control.stats,
    resetStats: control.resetStats,
    reset: control.reset,
    head: () => head.at(now()),
    close: () => {
      closing ??= Promise.all([music, explorer, webhook, admin].map((endpoint) => endpoint.close())).then(() => undefined);
      return closing;
    },
  };
}

function mapEndpoints<T>(make: (endpoint: EndpointName, index: number) => T): Record<EndpointName, T> {
  return Object.fromEntries(ENDPOINTS.map((endpoint, index) => [endpoint, make(endpoint, index)])) as Record<EndpointName, T>;
}

/** Port 0 gives every endpoint a free port; port P gives them P, P+1, P+2, P+3. */
async function listenAll(specs: EndpointSpec[], host: string, port: number): Promise<[RunningEndpoint, RunningEndpoint, RunningEndpoint, RunningEndpoint]> {
  const running: RunningEndpoint[] = [];
  for (const [offset, spec] of specs.entries()) {
    const result = await listenEndpoint(spec, host, port === 0 ? 0 : port + offset);
    if (!result.ok) {
      await Promise.all(running.map((endpoint) => endpoint.close()));
      throw new SimulatorError('listen_failed', `Cannot listen on ${host}:${result.error.port}: ${result.error.cause.message}`, undefined, {
        cause: result.error.cause,
      });
    }
    running.push(result.endpoint);
  }
  return running as [RunningEndpoint, RunningEndpoint, RunningEndpoint, RunningEndpoint];
}

function webhookUuidOf(seed: number): string {
  const domain = domainOf('webhook.uuid');
  return uuidFromWords(hashOf(seed, domain, 0), hashOf(seed, domain, 1), hashOf(seed, domain, 2), hashOf(seed, domain, 3));
}
