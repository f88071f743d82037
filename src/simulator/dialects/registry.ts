import type { ExplorerWire } from '../explorer/explorerWire.js';
import type { MusicWire } from '../music/musicWire.js';
import { envelopeExplorerWire, envelopeMusicWire } from './envelope.js';
import { etherscanExplorerWire } from './etherscan.js';
import { lastfmMusicWire } from './lastfm.js';
import type { DialectName } from './names.js';

/** The wire format of each dialect's music and explorer endpoints; the webhook receiver always speaks the envelope. */
export interface DialectWires {
  music: MusicWire;
  explorer: ExplorerWire;
}

/** Each dialect changes one endpoint; the other keeps the envelope. */
export const DIALECT_WIRES: Readonly<Record<DialectName, DialectWires>> = {
  envelope: { music: envelopeMusicWire, explorer: envelopeExplorerWire },
  lastfm: { music: lastfmMusicWire, explorer: envelopeExplorerWire },
  etherscan: { music: envelopeMusicWire, explorer: etherscanExplorerWire },
};
