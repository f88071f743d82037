import { z } from 'zod';
import { DEFAULT_CHAIN_SHAPE, chainShapeProblem, type ChainShape } from './explorer/Chain.js';
import { DEFAULT_DIALECT, DIALECTS, type DialectName } from './dialects/names.js';
import { ENDPOINTS, resolveFaults, type EndpointName, type Faults, type FaultsInput } from './control/faults.js';
import { DEFAULT_CATALOGUE_SIZE, type CatalogueSize } from './music/MusicCatalogue.js';
import { SimulatorError } from './SimulatorError.js';
import type { WebhookLimits } from './webhookReceiver.js';

export const DEFAULT_SEED = 1;
/** Loopback: the simulator is a test upstream, reachable from this machine only unless told otherwise. */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_API_KEY = 'sim-key-0123456789abcdef';
export const DEFAULT_BLOCK_INTERVAL_MS = 3000;
export const DEFAULT_WEBHOOK_LIMITS: Readonly<WebhookLimits> = { maxRequestsPerUuid: 10_000, maxUuids: 1000 };

export interface SimulatorOptions {
  /** The IP address every endpoint listens on, and the host of its URLs (default 127.0.0.1). */
  host?: string;
  /** 0 (default): every endpoint on its own free port. P: music on P, explorer P+1, webhook P+2, admin P+3. */
  port?: number;
  /** Seeds the catalogue, the chain, the webhook UUID and every fault decision (uint32, default 1). */
  seed?: number;
  /** Keys accepted by music and explorer (where the key goes depends on the dialect); the first is `Simulator.apiKey`. Default ['sim-key-0123456789abcdef']. */
  apiKeys?: string[];
  /** Keys the music endpoint refuses as suspended (Last.fm error 26, HTTP 403); the explorer refuses them as invalid. Default none. */
  suspendedKeys?: string[];
  /**
   * The wire format: 'envelope' (default) answers everywhere in the feedsync envelope with a Bearer
   * key; 'lastfm' makes the music endpoint answer as Last.fm, 'etherscan' the explorer as Etherscan.
   */
  dialect?: DialectName;
  /** Catalogue sizes (artists, albumsPerArtist, tracksPerAlbum, tags, users, playsPerUser); unset ones take DEFAULT_CATALOGUE_SIZE. */
  music?: Partial<CatalogueSize>;
  /** Chain shape (initialHead, txsPerBlock, activeAddresses, genesisTimestamp, blockTimeSeconds) and how fast the head moves; unset ones take the defaults. */
  chain?: Partial<ChainShape> & {
    /** A new block every this many ms after start; 0 freezes the head. Default 3000. */
    blockIntervalMs?: number;
  };
  /** Faults per endpoint at start, restored by `reset()` / `POST /reset`. Default: none. */
  faults?: Partial<Record<EndpointName, FaultsInput>>;
  /** Bounds of the webhook log (maxRequestsPerUuid 10,000, maxUuids 1,000 by default). */
  webhook?: Partial<WebhookLimits>;
  /** The clock, epoch ms (default Date.now); a fake one moves the head and outage windows without waiting. */
  now?: () => number;
}

export interface ResolvedSimulatorOptions {
  host: string;
  port: number;
  seed: number;
  apiKeys: string[];
  suspendedKeys: string[];
  dialect: DialectName;
  music: CatalogueSize;
  chain: ChainShape;
  blockIntervalMs: number;
  faults: Record<EndpointName, Faults>;
  webhook: WebhookLimits;
  now: () => number;
}

const count = (max: number) => z.number().int().min(1).max(max);

const apiKey = z.string().regex(/^\S+$/, 'API keys are non-empty and have no spaces');

const optionsSchema = z.strictObject({
  // An address, not a name: the URLs handed out must reach the very socket listened on.
  host: z.union([z.ipv4(), z.ipv6()], { error: 'expected an IPv4 or IPv6 address' }).default(DEFAULT_HOST),
  port: z.number().int().min(0).max(65_532).default(0),
  seed: z.number().int().min(0).max(0xffff_ffff).default(DEFAULT_SEED),
  apiKeys: z.array(apiKey).min(1).default([DEFAULT_API_KEY]),
  suspendedKeys: z.array(apiKey).default([]),
  dialect: z.enum(DIALECTS).default(DEFAULT_DIALECT),
  music: z
    .strictObject({
      artists: count(10_000_000),
      albumsPerArtist: count(1000),
      tracksPerAlbum: count(1000),
      // Primary tags are kept in a Uint16Array.
      tags: count(65_535),
      users: count(10_000_000),
      playsPerUser: count(100_000_000),
    })
    .partial()
    .default({}),
  chain: z
    .strictObject({
      initialHead: z.number().int().min(0),
      txsPerBlock: count(1_000_000),
      activeAddresses: z.number().int().min(2).max(1_000_000),
      genesisTimestamp: z.number().int().min(0),
      blockTimeSeconds: count(86_400),
      blockIntervalMs: z.number().min(0),
    })
    .partial()
    .default({}),
  faults: z.strictObject({ music: z.unknown(), explorer: z.unknown(), webhook: z.unknown() }).partial().default({}),
  webhook: z.strictObject({ maxRequestsPerUuid: count(10_000_000), maxUuids: count(1_000_000) }).partial().default({}),
});

/** Fills defaults and checks everything, throwing SimulatorError('invalid_options') naming the option at fault. */
export function resolveSimulatorOptions(options: SimulatorOptions): ResolvedSimulatorOptions {
  const { now = Date.now, ...plain } = options;
  const parsed = optionsSchema.safeParse(plain);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    throw new SimulatorError('invalid_options', `Invalid simulator option ${path}: ${issue.message}`, path);
  }
  const { blockIntervalMs = DEFAULT_BLOCK_INTERVAL_MS, ...shape } = parsed.data.chain;
  const chain: ChainShape = { ...DEFAULT_CHAIN_SHAPE, ...shape };
  const problem = chainShapeProblem(chain);
  if (problem !== undefined) throw new SimulatorError('invalid_options', `Invalid simulator option chain.${problem.field}: ${problem.message}`, `chain.${problem.field}`);
  const startedAt = now();
  const faults = Object.fromEntries(
    ENDPOINTS.map((endpoint) => {
      const result = resolveFaults(parsed.data.faults[endpoint], startedAt);
      if (!result.ok) {
        const path = `faults.${endpoint}${result.error.path === '' ? '' : `.${result.error.path}`}`;
        throw new SimulatorError('invalid_options', `Invalid simulator option faults.${endpoint}: ${result.error.message}`, path);
      }
      return [endpoint, result.faults];
    }),
  ) as Record<EndpointName, Faults>;
  return {
    host: parsed.data.host,
    port: parsed.data.port,
    seed: parsed.data.seed,
    apiKeys: parsed.data.apiKeys,
    suspendedKeys: parsed.data.suspendedKeys,
    dialect: parsed.data.dialect,
    music: { ...DEFAULT_CATALOGUE_SIZE, ...parsed.data.music },
    chain,
    blockIntervalMs,
    faults,
    webhook: { ...DEFAULT_WEBHOOK_LIMITS, ...parsed.data.webhook },
    now,
  };
}
