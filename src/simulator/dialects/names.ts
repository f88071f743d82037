/** The wire formats the simulator speaks. Apart, so the CLI can name them without loading the simulator. */
export const DIALECTS = ['envelope', 'lastfm', 'etherscan'] as const;
export type DialectName = (typeof DIALECTS)[number];

export const DEFAULT_DIALECT: DialectName = 'envelope';

/** One line per dialect: which endpoint speaks what, and where the key goes. */
export const DIALECT_SUMMARIES: Readonly<Record<DialectName, string>> = {
  envelope: 'every endpoint answers in the feedsync envelope {status, data, message}; key as Authorization: Bearer',
  lastfm: 'music answers as Last.fm (key in ?api_key=, format=json required); explorer and webhook keep the envelope',
  etherscan: 'explorer answers as Etherscan (key in ?apikey=, paging by page and offset); music and webhook keep the envelope',
};
