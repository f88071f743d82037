import type { Simulator } from './startSimulator.js';

/** The one JSON line `feedsync simulate --json` prints once ready. */
export function readyJson(simulator: Simulator): string {
  const { musicBaseUrl, explorerBaseUrl, webhookBaseUrl, apiKey, webhookUuid, adminUrl, hotAddress } = simulator;
  return JSON.stringify({ musicBaseUrl, explorerBaseUrl, webhookBaseUrl, apiKey, webhookUuid, adminUrl, hotAddress });
}

/** The environment a feedsync config reads to use this simulator (see feedsync.yaml). */
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
  };
}

/** Shell lines to paste before running feedsync against the simulator. */
export function readyExports(simulator: Simulator): string[] {
  return Object.entries(simulatorEnv(simulator)).map(([name, value]) => `export ${name}=${value}`);
}
