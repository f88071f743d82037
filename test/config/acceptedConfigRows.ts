import type { Config } from '../../src/config/schema.js';
import { authSecrets } from '../../src/config/sources/authSchema.js';
import type { ConfigTree as Tree } from '../support/configTrees.js';

/*
 * Odd configs `config check` must take, one a row: the config (an edit of the valid tree), what
 * it must read from it, and the warnings it must give. acceptedConfigs.test.ts runs them.
 */

export interface AcceptedConfigRow {
  what: string;
  edit: (tree: Tree) => void;
  env?: Record<string, string>;
  /** What is read from the parsed config, shown as JSON in the outcome. */
  read: (config: Config) => unknown;
  /** `<what is read, as JSON>; <the warnings, "path: message" joined by " | ", or "no warnings">`. */
  outcome: RegExp;
}

const apiKey = (config: Config) => authSecrets(config.sources.music!.auth);
const params = (config: Config) => config.jobs[0]!.params;
const query = (t: Tree) => (t.jobs[0]!.queries as Record<string, unknown>[])[0]!;
/** The tree's kinds section, made empty. */
const kinds = (t: Tree): Record<string, unknown> => ((t as unknown as { kinds: Record<string, unknown> }).kinds = {});
const userAgent = (config: Config) => config.sources.music!.userAgent ?? null;
const columnPath = (config: Config) => config.kinds.artist!.columns.n!.path;

export const acceptedConfigRows: AcceptedConfigRow[] = [
  { what: 'a rate limit of one window', edit: (t) => (t.sources.music.rateLimit = { max: 4 }), read: (c) => c.sources.music!.rateLimit, outcome: /^\[\{"max":4,"durationMs":1000\}\]; no warnings$/ },
  { what: 'a rate limit of a window a second and one a day', edit: (t) => (t.sources.music.rateLimit = [{ max: 4 }, { max: 100_000, durationMs: 86_400_000 }]), read: (c) => c.sources.music!.rateLimit, outcome: /^\[\{"max":4,"durationMs":1000\},\{"max":100000,"durationMs":86400000\}\]; no warnings$/ },
  { what: 'a default that is a reference', edit: (t) => (t.sources.music.apiKey = '${NOPE:-${MUSIC_API_KEY}}'), read: apiKey, outcome: /^\["k-music-0123"\]; no warnings$/ },
  { what: 'a default that is a reference with a default', edit: (t) => (t.sources.music.apiKey = '${NOPE:-${NOPE_TOO:-fallback-key-0123}}'), read: apiKey, outcome: /^\["fallback-key-0123"\]; no warnings$/ },
  { what: 'a default that is a reference, inside a longer text', edit: (t) => (t.sources.music.apiKey = 'k-${NOPE:-${MUSIC_API_KEY}}-x'), read: apiKey, outcome: /^\["k-k-music-0123-x"\]; no warnings$/ },
  { what: 'a set variable whose default is a reference to an unset one', edit: (t) => (t.sources.music.apiKey = '${MUSIC_API_KEY:-${NOPE}}'), read: apiKey, outcome: /^\["k-music-0123"\]; no warnings$/ },
  { what: 'a key in job params named apikey', edit: (t) => (t.jobs[0]!.params = { apikey: 'k-param-0123' }), read: params, outcome: /^\{"apikey":"k-param-0123"\}; jobs\[0\]\.params\.apikey: .*auth: \{type: query, name: apikey, value: …\}\); as a param its value is masked/ },
  { what: 'a key in source params named api_key', edit: (t) => (t.sources.music.params = { api_key: 'k-param-0123' }), read: (c) => c.sources.music!.params, outcome: /; sources\.music\.params\.api_key: .*auth: \{type: query, name: api_key/ },
  { what: 'a key in query params named token', edit: (t) => (query(t).params = { method: 'artist.search', token: 'k-param-0123' }), read: () => null, outcome: /^null; jobs\[0\]\.queries\[0\]\.params\.token: .*type: query/ },
  { what: 'a key in query params named signature', edit: (t) => (query(t).params = { signature: 'k-param-0123' }), read: () => null, outcome: /^null; jobs\[0\]\.queries\[0\]\.params\.signature: / },
  { what: 'a key in query params named secret', edit: (t) => (query(t).params = { secret: 'k-param-0123' }), read: () => null, outcome: /^null; jobs\[0\]\.queries\[0\]\.params\.secret: / },
  { what: 'a param named keyword, which is no key', edit: (t) => (query(t).params = { keyword: 'rock' }), read: () => null, outcome: /^null; no warnings$/ },
  { what: 'a column at path null', edit: (t) => (kinds(t).artist = { columns: { n: { path: 'null', type: 'text' } } }), read: columnPath, outcome: /^\["null"\]; no warnings$/ },
  { what: 'indexes on a column and on two', edit: (t) => (kinds(t).artist = { columns: { n: { path: 'name', type: 'text' } }, indexes: ['n', ['n', 'changed_at']] }), read: (config) => config.kinds.artist!.indexes, outcome: /^\[\["n"\],\["n","changed_at"\]\]; no warnings$/ },
  { what: 'a column at path 0', edit: (t) => (kinds(t).artist = { columns: { n: { path: '0', type: 'text' } } }), read: columnPath, outcome: /^\["0"\]; no warnings$/ },
  { what: 'a column at path null.true', edit: (t) => (kinds(t).artist = { columns: { n: { path: 'null.true', type: 'text' } } }), read: columnPath, outcome: /^\["null\.true"\]; no warnings$/ },
  { what: 'a column at the paths null, then name', edit: (t) => (kinds(t).artist = { columns: { n: { path: ['null', 'name'], type: 'text' } } }), read: columnPath, outcome: /^\["null","name"\]; no warnings$/ },
  { what: 'no userAgent contact', edit: () => undefined, read: userAgent, outcome: /^null; no warnings$/ },
  { what: 'a userAgent contact that is an e-mail address', edit: (t) => (t.sources.music.userAgent = 'ops@example.org'), read: userAgent, outcome: /^"ops@example\.org"; no warnings$/ },
  { what: 'a userAgent contact of 200 characters, with spaces and + inside', edit: (t) => (t.sources.music.userAgent = `https://example.org/?q=a+b c${'d'.repeat(172)}`), read: (c) => c.sources.music!.userAgent?.length, outcome: /^200; no warnings$/ },
  { what: 'a userAgent contact from ${ENV} with a default', edit: (t) => (t.sources.music.userAgent = '${NOPE:-https://github.com/your-org/your-repo}'), read: userAgent, outcome: /^"https:\/\/github\.com\/your-org\/your-repo"; no warnings$/ },
];
