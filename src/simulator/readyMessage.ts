import { DEFAULT_DIALECT, DIALECT_SUMMARIES } from './dialects/names.js';
import type { Simulator } from './startSimulator.js';

/** The one JSON line `feedsync simulate --json` prints once ready. */
export function readyJson(simulator: Simulator): string {
  const { musicBaseUrl, explorerBaseUrl, webhookBaseUrl, apiKey, webhookUuid, adminUrl, hotAddress } = simulator;
  return JSON.stringify({ musicBaseUrl, explorerBaseUrl, webhookBaseUrl, apiKey, webhookUuid, adminUrl, hotAddress });
}

/** The environment a feedsync config reads to use this simulator (see feedsync.yaml). The same in every dialect: only where the key goes differs. */
export function simulatorEnv(simulator: Simulator): Record<string, string> {
  return {
    MUSIC_BASE_URL: simulator.musicBaseUrl,
    MUSIC_API_KEY: simulator.apiKey,
    EXPLORER_BASE_URL: simulator.explorerBaseUrl,
    EXPLORER_API_KEY: simulator.apiKey,
    WEBHOOK_BASE_URL: simulator.webhookBaseUrl,
    WEBHOOK_UUID: simulator.webhookUuid,
    SIMULATOR_ADMIN_URL: simulator.adminUrl,
    EXPLORER_HOT_ADDRESS: simulator.hotAddress,
    // What examples/lastfm.yaml and examples/etherscan.yaml read, for the endpoint that speaks their dialect.
    ...(simulator.dialect === 'lastfm' && lastfmEnv(simulator)),
    ...(simulator.dialect === 'etherscan' && etherscanEnv(simulator)),
  };
}

/** The variables of examples/lastfm.yaml, pointing at the music endpoint. */
export function lastfmEnv(simulator: Simulator): Record<string, string> {
  return { LASTFM_BASE_URL: simulator.musicBaseUrl, LASTFM_API_KEY: simulator.apiKey };
}

/** The variables of examples/etherscan.yaml, pointing at the explorer endpoint. */
export function etherscanEnv(simulator: Simulator): Record<string, string> {
  return { ETHERSCAN_BASE_URL: simulator.explorerBaseUrl, ETHERSCAN_API_KEY: simulator.apiKey };
}

/** Shell lines to paste before running feedsync against the simulator. */
export function readyExports(simulator: Simulator): string[] {
  return Object.entries(simulatorEnv(simulator)).map(([name, value]) => `export ${name}=${value}`);
}

/**
 * What `feedsync simulate` prints once ready: a heading, for another dialect than the envelope a
 * note (as a shell comment, so the block still pastes) on what it speaks, then the export lines.
 */
export function readyText(simulator: Simulator): string {
  const dialect = simulator.dialect;
  if (dialect === DEFAULT_DIALECT) {
    return [`feedsync simulator ready (seed ${simulator.seed}); paste these, Ctrl-C stops it:`, ...readyExports(simulator), ''].join('\n');
  }
  return [
    `feedsync simulator ready (seed ${simulator.seed}, dialect ${dialect}); paste these, Ctrl-C stops it:`,
    `# ${dialect}: ${DIALECT_SUMMARIES[dialect]}`,
    ...readyExports(simulator),
    '',
  ].join('\n');
}
