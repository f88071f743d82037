import { isIP } from 'node:net';
import { InvalidArgumentError, type Command } from 'commander';
import { INT32_MAX } from '../../config/bounds.js';
import { DEFAULT_DIALECT, DIALECTS, type DialectName } from '../../simulator/dialects/names.js';
import { ENDPOINTS, type EndpointName } from '../../simulator/server/endpointNames.js';
import type { FaultsInput } from '../../simulator/control/faults.js';
import type { SimulatorError } from '../../simulator/SimulatorError.js';
import type { SimulatorOptions } from '../../simulator/simulatorOptions.js';
import { integerFlag, numberFlag } from '../options.js';

interface SimulateFlags {
  host?: string;
  port: number;
  seed?: number;
  json?: true;
  apiKey: string[];
  suspendedKey: string[];
  dialect: DialectName;
  blockIntervalMs?: number;
  initialHead?: number;
  txsPerBlock?: number;
  activeAddresses?: number;
  artists?: number;
  albumsPerArtist?: number;
  tracksPerAlbum?: number;
  tags?: number;
  users?: number;
  playsPerUser?: number;
  faultEndpoints: EndpointName[];
  faultLatencyMs?: number;
  faultJitterMs?: number;
  faultServerError?: number;
  faultTooManyRequests?: number;
  faultRetryAfter?: number;
  faultRetryAfterForm?: 'seconds' | 'httpDate';
  faultReset?: number;
  faultHang?: number;
  faultMalformedJson?: number;
  faultTruncatedBody?: number;
  faultErrorEnvelope?: number;
  faultOutageMs?: number;
}

/** The flag to blame for an option the simulator rejected after the flags parsed. */
const FLAG_OF_OPTION: Readonly<Record<string, string>> = {
  'chain.txsPerBlock': '--txs-per-block',
  'chain.activeAddresses': '--active-addresses',
  'chain.initialHead': '--initial-head',
  'music.artists': '--artists',
  'music.albumsPerArtist': '--albums-per-artist',
  'music.tracksPerAlbum': '--tracks-per-album',
  'music.tags': '--tags',
  'music.users': '--users',
  'music.playsPerUser': '--plays-per-user',
  host: '--host',
  apiKeys: '--api-key',
  suspendedKeys: '--suspended-key',
  dialect: '--dialect',
};

/** Milliseconds become timers, which hold at most INT32_MAX. */
const milliseconds = (flag: string) => numberFlag(flag, 0, INT32_MAX);
const share = (flag: string) => numberFlag(flag, 0, 1, ', e.g. 0.05');
const count = (flag: string, min = 1) => integerFlag(flag, min, INT32_MAX);

const endpointList = (raw: string): EndpointName[] => {
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !ENDPOINTS.some((endpoint) => endpoint === name));
  if (unknown.length > 0 || names.length === 0) throw new InvalidArgumentError(`Expected a comma-separated list of ${ENDPOINTS.join(', ')}.`);
  return names as EndpointName[];
};

const retryAfterForm = (raw: string): 'seconds' | 'httpDate' => {
  if (raw === 'seconds') return 'seconds';
  if (raw === 'http-date') return 'httpDate';
  throw new InvalidArgumentError('Expected seconds or http-date.');
};

const dialectName = (raw: string): DialectName => {
  const dialect = DIALECTS.find((name) => name === raw);
  if (dialect === undefined) throw new InvalidArgumentError(`Expected one of ${DIALECTS.join(', ')}.`);
  return dialect;
};

const collect = (raw: string, previous: string[]): string[] => [...previous, raw];

const listenAddress = (raw: string): string => {
  if (isIP(raw) === 0) throw new InvalidArgumentError('Expected an IPv4 or IPv6 address, e.g. 10.0.0.2.');
  return raw;
};

/**
 * `feedsync simulate`: serves the fake upstreams until SIGINT/SIGTERM. The simulator is loaded only
 * when it runs, and its defaults are stated in the flags' text, so other commands never carry it.
 */
export function registerSimulateCommand(program: Command): void {
  program
    .command('simulate')
    .description('Serve fake music (Last.fm style), explorer (Etherscan style) and webhook upstreams on loopback ports (or --host), with injectable faults')
    .option('--host <address>', 'IP address to listen on, and the host of the URLs printed (default 127.0.0.1: this machine only)', listenAddress)
    .option('--port <n>', 'music port; explorer, webhook and admin take the next three (0: free ports)', integerFlag('--port', 0, 65_532), 0)
    .option('--seed <n>', 'seed of the data, the webhook UUID and the fault decisions (default 1)', integerFlag('--seed', 0, 0xffff_ffff))
    .option('--json', 'print one JSON line with the URLs once ready')
    .option('--api-key <key>', 'accepted API key; repeat for more (default sim-key-0123456789abcdef)', collect, [])
    .option('--suspended-key <key>', 'API key the music endpoint refuses as suspended (Last.fm error 26); repeat for more', collect, [])
    .option('--dialect <name>', 'envelope (feedsync envelope, Bearer key), lastfm (music answers as Last.fm) or etherscan (explorer answers as Etherscan API V2)', dialectName, DEFAULT_DIALECT)
    .option('--block-interval-ms <ms>', 'a new block every this many ms; 0 freezes the head (default 3000)', milliseconds('--block-interval-ms'))
    .option('--initial-head <n>', 'head block at start (default 120000)', count('--initial-head', 0))
    .option('--txs-per-block <n>', 'txs in every block, a multiple of --active-addresses (default 100)', count('--txs-per-block'))
    .option('--active-addresses <n>', 'addresses that make all txs (default 20)', count('--active-addresses', 2))
    .option('--artists <n>', 'artists in the catalogue (default 10000)', count('--artists'))
    .option('--albums-per-artist <n>', 'default 2', count('--albums-per-artist'))
    .option('--tracks-per-album <n>', 'default 5', count('--tracks-per-album'))
    .option('--tags <n>', 'default 50', integerFlag('--tags', 1, 65_535))
    .option('--users <n>', 'default 1000', count('--users'))
    .option('--plays-per-user <n>', 'average listening history length (default 3000)', count('--plays-per-user'))
    .option('--fault-endpoints <list>', 'endpoints the --fault-* flags apply to', endpointList, [...ENDPOINTS])
    .option('--fault-latency-ms <ms>', 'fixed delay before every answer', milliseconds('--fault-latency-ms'))
    .option('--fault-jitter-ms <ms>', 'extra random delay up to this', milliseconds('--fault-jitter-ms'))
    .option('--fault-server-error <share>', 'share of HTTP 500/502/503 answers', share('--fault-server-error'))
    .option('--fault-too-many-requests <share>', 'share of HTTP 429 answers with Retry-After', share('--fault-too-many-requests'))
    .option('--fault-retry-after <seconds>', 'Retry-After of 429 answers (default 1)', integerFlag('--fault-retry-after', 0, Math.floor(INT32_MAX / 1000)))
    .option('--fault-retry-after-form <form>', 'seconds or http-date (default seconds)', retryAfterForm)
    .option('--fault-reset <share>', 'share of connections reset without an answer', share('--fault-reset'))
    .option('--fault-hang <share>', 'share of requests never answered', share('--fault-hang'))
    .option('--fault-malformed-json <share>', 'share of 200 answers with broken JSON', share('--fault-malformed-json'))
    .option('--fault-truncated-body <share>', 'share of answers cut short of their Content-Length', share('--fault-truncated-body'))
    .option('--fault-error-envelope <share>', 'share of HTTP 200 answers with an error envelope', share('--fault-error-envelope'))
    .option('--fault-outage-ms <ms>', 'answer 503 to everything for this long after start', milliseconds('--fault-outage-ms'))
    .action(async (_options: unknown, command: Command) => {
      const flags = command.opts<SimulateFlags>();
      const [{ startSimulator }, { SimulatorError }, { readyJson, readyText }] = await Promise.all([
        import('../../simulator/startSimulator.js'),
        import('../../simulator/SimulatorError.js'),
        import('../../simulator/readyMessage.js'),
      ]);
      const simulator = await startSimulator(simulatorOptionsOf(flags)).catch((error: unknown) => {
        throw error instanceof SimulatorError && error.kind === 'invalid_options' ? new Error(blameFlag(error), { cause: error }) : error;
      });
      process.stdout.write(flags.json === true ? `${readyJson(simulator)}\n` : readyText(simulator));
      await untilStopSignal();
      await simulator.close();
    });
}

function simulatorOptionsOf(flags: SimulateFlags): SimulatorOptions {
  const faults = faultsOf(flags);
  return {
    ...(flags.host !== undefined && { host: flags.host }),
    port: flags.port,
    seed: flags.seed,
    ...(flags.apiKey.length > 0 && { apiKeys: flags.apiKey }),
    ...(flags.suspendedKey.length > 0 && { suspendedKeys: flags.suspendedKey }),
    dialect: flags.dialect,
    chain: definedOnly({
      blockIntervalMs: flags.blockIntervalMs,
      initialHead: flags.initialHead,
      txsPerBlock: flags.txsPerBlock,
      activeAddresses: flags.activeAddresses,
    }),
    music: definedOnly({
      artists: flags.artists,
      albumsPerArtist: flags.albumsPerArtist,
      tracksPerAlbum: flags.tracksPerAlbum,
      tags: flags.tags,
      users: flags.users,
      playsPerUser: flags.playsPerUser,
    }),
    ...(faults !== undefined && { faults: Object.fromEntries(flags.faultEndpoints.map((endpoint) => [endpoint, faults])) }),
  };
}

/** The faults the --fault-* flags describe, or undefined when none was given. */
function faultsOf(flags: SimulateFlags): FaultsInput | undefined {
  const shares = definedOnly({
    serverError: flags.faultServerError,
    tooManyRequests: flags.faultTooManyRequests,
    reset: flags.faultReset,
    hang: flags.faultHang,
    malformedJson: flags.faultMalformedJson,
    truncatedBody: flags.faultTruncatedBody,
    errorEnvelope: flags.faultErrorEnvelope,
  });
  const retryAfter = definedOnly({ seconds: flags.faultRetryAfter, form: flags.faultRetryAfterForm });
  const faults: FaultsInput = {
    ...definedOnly({ latencyMs: flags.faultLatencyMs, jitterMs: flags.faultJitterMs }),
    ...(Object.keys(shares).length > 0 && { shares }),
    ...(Object.keys(retryAfter).length > 0 && { retryAfter }),
    ...(flags.faultOutageMs !== undefined && { outage: { forMs: flags.faultOutageMs } }),
  };
  return Object.keys(faults).length > 0 ? faults : undefined;
}

function definedOnly<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function blameFlag(error: SimulatorError): string {
  const path = error.optionPath ?? '';
  const flag = FLAG_OF_OPTION[path] ?? (path.startsWith('faults.') ? '--fault-*' : undefined);
  return flag === undefined ? error.message : `${flag}: ${error.message}`;
}

function untilStopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
