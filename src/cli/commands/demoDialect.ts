import type { Config } from '../../config/schema.js';

export type DemoDialect = 'envelope' | 'lastfm' | 'etherscan';

/**
 * The simulator dialect a config is written for, told by its sources' response presets: a config
 * for Last.fm needs the music endpoint to answer as Last.fm does, one for Etherscan the explorer.
 */
export function demoDialectOf(config: Config): DemoDialect {
  const presets = new Set(Object.values(config.sources).map((source) => source.response.preset));
  if (presets.has('lastfm') && presets.has('etherscan')) {
    throw new Error('the demo serves one dialect at a time: this config has sources for both Last.fm and Etherscan; run it against the real services, or split it');
  }
  if (presets.has('lastfm')) return 'lastfm';
  if (presets.has('etherscan')) return 'etherscan';
  return 'envelope';
}
