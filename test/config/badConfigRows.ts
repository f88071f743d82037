import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { validTree, type ConfigTree as Tree } from '../support/configTrees.js';

/*
 * Configs `config check` must refuse, one a row: the config (an edit of a valid tree, a file's
 * bytes, or a file made otherwise) and where and how it is refused. badConfigs.test.ts runs them.
 */

export const ENV = { MUSIC_API_KEY: 'k-music-0123' };
const INT32_OVER = 2 ** 31;
const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');
/** The valid tree as YAML (JSON is YAML), for rows that are files. */
export const validYaml = () => JSON.stringify(validTree(), null, 2);

/** The valid tree's one query, to edit. */
const query = (t: Tree) => (t.jobs[0]!.queries as Record<string, unknown>[])[0]!;
/** Makes the valid tree's query fan out: its q goes, since each run's value is its q. */
const fanOut = (t: Tree, forEach: Record<string, unknown>) => {
  delete query(t).q;
  query(t).forEach = forEach;
};

export interface Row {
  what: string;
  /** Where the problem is reported ('' for the file as a whole; a pattern for a place that depends on the parser) and what it says. */
  path: string | RegExp;
  message: RegExp;
  env?: Record<string, string>;
  /** Text the report must never hold (a secret). */
  secret?: string;
  /** The config, as an edit of the valid tree, or as a file's bytes, or as a file made otherwise. */
  edit?: (tree: Tree) => void;
  file?: { name: string; bytes: string | Buffer };
  make?: (path: string) => Promise<void> | void;
}

export const badConfigRows: Row[] = [
  // A. The webhook signing secret
  { what: 'a secret of one base64 character', edit: (t) => (t.webhook.secret = 'whsec_a'), path: 'webhook.secret', message: /strict base64/, secret: 'whsec_a' },
  { what: 'a secret without its padding', edit: (t) => (t.webhook.secret = 'whsec_AA'), path: 'webhook.secret', message: /padded with =/, secret: 'whsec_AA' },
  { what: 'a secret of one byte', edit: (t) => (t.webhook.secret = 'whsec_AA=='), path: 'webhook.secret', message: /1-byte key; it needs at least 24 bytes/ },
  { what: 'a secret of 23 bytes', edit: (t) => (t.webhook.secret = `whsec_${base64Of(23)}`), path: 'webhook.secret', message: /23-byte key; it needs at least 24/, secret: base64Of(23) },
  { what: 'a secret in the URL-safe alphabet', edit: (t) => (t.webhook.secret = `whsec_${base64Of(30).replaceAll('H', '-')}_`), path: 'webhook.secret', message: /strict base64/ },
  { what: 'a secret whose padding hides set bits', edit: (t) => (t.webhook.secret = `whsec_${base64Of(25).replace(/w==$/, 'x==')}`), path: 'webhook.secret', message: /strict base64/ },
  { what: 'a secret with a space in it', edit: (t) => (t.webhook.secret = `whsec_${base64Of(12)} ${base64Of(12)}`), path: 'webhook.secret', message: /no spaces/ },
  { what: 'a secret with a trailing line break', edit: (t) => (t.webhook.secret = `whsec_${base64Of(30)}\n`), path: 'webhook.secret', message: /strict base64/, secret: base64Of(30) },
  { what: 'a secret without "whsec_"', edit: (t) => (t.webhook.secret = base64Of(30)), path: 'webhook.secret', message: /must be "whsec_" followed by base64/, secret: base64Of(30) },
  { what: 'a secret that is a number', edit: (t) => (t.webhook.secret = 24), path: 'webhook.secret', message: /expected string/ },

  // B. Where a source's path leads
  { what: 'a path to another host', edit: (t) => (t.sources.music.path = '//evil.example/api'), path: 'sources.music.path', message: /leads to http:\/\/evil\.example, not to the origin of sources\.music\.baseUrl/ },
  { what: 'a path with a backslash', edit: (t) => (t.sources.music.path = '/\\evil.example:8080/api'), path: 'sources.music.path', message: /leads to http:\/\/evil\.example:8080/ },
  { what: 'a path with a tab the URL parser drops', edit: (t) => (t.sources.music.path = '/\t/evil.example/api'), path: 'sources.music.path', message: /leads to http:\/\/evil\.example,/ },
  { what: 'a path to another host with credentials', edit: (t) => (t.sources.music.path = '//user:s3cretpw@evil.example/'), path: 'sources.music.path', message: /the API key would go there/, secret: 's3cretpw' },
  { what: 'a path that does not start with /', edit: (t) => (t.sources.music.path = 'api'), path: 'sources.music.path', message: /must start with \// },

  // C. Bounds: timers and int columns hold at most 2^31 - 1
  { what: 'a webhook timeout whose lease overflows an int', edit: (t) => (t.webhook.timeoutMs = 3_000_000_000), path: 'webhook.timeoutMs', message: /at most 2147473647/ },
  { what: 'a webhook timeout just past its bound', edit: (t) => (t.webhook.timeoutMs = 2_147_473_648), path: 'webhook.timeoutMs', message: /lease/ },
  { what: 'a give-up age past int32', edit: (t) => (t.webhook.giveUpAfterMs = INT32_OVER), path: 'webhook.giveUpAfterMs', message: /at most 2147483647/ },
  { what: 'a retry wait past int32', edit: (t) => (t.webhook.retryScheduleMs = [5_000, INT32_OVER]), path: 'webhook.retryScheduleMs[1]', message: /at most 2147483647/ },
  { what: 'an empty retry schedule', edit: (t) => (t.webhook.retryScheduleMs = []), path: 'webhook.retryScheduleMs', message: /1 item/ },
  { what: 'no notice posted at once', edit: (t) => (t.webhook.concurrency = 0), path: 'webhook.concurrency', message: /at least 1/ },
  { what: 'a source timeout past int32', edit: (t) => (t.sources.music.timeoutMs = INT32_OVER), path: 'sources.music.timeoutMs', message: /at most 2147483647/ },
  { what: 'a source timeout of zero', edit: (t) => (t.sources.music.timeoutMs = 0), path: 'sources.music.timeoutMs', message: /at least 1/ },
  { what: 'a source timeout that is not a number', edit: (t) => (t.sources.music.timeoutMs = Infinity), path: 'sources.music.timeoutMs', message: /expected number/ },
  { what: 'a source timeout from ${ENV} past int32', edit: (t) => (t.sources.music.timeoutMs = '${TIMEOUT_MS}'), env: { ...ENV, TIMEOUT_MS: '99999999999' }, path: 'sources.music.timeoutMs', message: /at most 2147483647/ },
  { what: 'a response size past int32', edit: (t) => (t.sources.music.maxResponseBytes = INT32_OVER), path: 'sources.music.maxResponseBytes', message: /at most 2147483647/ },
  { what: 'a retry ceiling past int32', edit: (t) => (t.sources.music.retry = { maxDelayMs: INT32_OVER }), path: 'sources.music.retry.maxDelayMs', message: /at most 2147483647/ },
  { what: 'a Retry-After cap past int32', edit: (t) => (t.sources.music.retry = { maxRetryAfterMs: 1e10 }), path: 'sources.music.retry.maxRetryAfterMs', message: /at most 2147483647/ },
  { what: 'a negative first backoff', edit: (t) => (t.sources.music.retry = { baseDelayMs: -1 }), path: 'sources.music.retry.baseDelayMs', message: /at least 0/ },
  { what: 'too many request attempts', edit: (t) => (t.sources.music.retry = { attempts: 21 }), path: 'sources.music.retry.attempts', message: /at most 20/ },
  { what: 'a rate-limit window past int32', edit: (t) => (t.sources.music.rateLimit = { max: 5, durationMs: INT32_OVER }), path: 'sources.music.rateLimit.durationMs', message: /at most 2147483647/ },
  { what: 'a rate limit of no request', edit: (t) => (t.sources.music.rateLimit = { max: 0 }), path: 'sources.music.rateLimit.max', message: /at least 1/ },
  { what: 'a rate limit of no window', edit: (t) => (t.sources.music.rateLimit = []), path: 'sources.music.rateLimit', message: /at least one window/ },
  { what: 'a rate limit whose second window allows no request', edit: (t) => (t.sources.music.rateLimit = [{ max: 5 }, { max: 0, durationMs: 86_400_000 }]), path: 'sources.music.rateLimit[1].max', message: /at least 1/ },
  { what: 'a rate limit that is neither a window nor a list', edit: (t) => (t.sources.music.rateLimit = 'fast'), path: 'sources.music.rateLimit', message: /expected object/ },
  { what: 'a source allowed no connection', edit: (t) => (t.sources.music.connections = 0), path: 'sources.music.connections', message: /at least 1/ },
  { what: 'a page cap past int32', edit: (t) => (t.sources.music.paging = { maxPages: INT32_OVER }), path: 'sources.music.paging.maxPages', message: /at most 2147483647/ },
  { what: 'a page size of half an item', edit: (t) => (t.sources.music.paging = { limit: 2.5 }), path: 'sources.music.paging.limit', message: /whole number/ },
  { what: 'a lock duration past int32', edit: (t) => (t.worker.lockDurationMs = INT32_OVER), path: 'worker.lockDurationMs', message: /at most 2147483647/ },
  { what: 'a stalled-job check of zero', edit: (t) => (t.worker.stalledIntervalMs = 0), path: 'worker.stalledIntervalMs', message: /at least 1/ },
  { what: 'a run backoff past int32', edit: (t) => (t.worker.backoffMs = INT32_OVER), path: 'worker.backoffMs', message: /at most 2147483647/ },
  { what: 'a database outage wait past int32', edit: (t) => (t.worker.databaseOutageMs = INT32_OVER), path: 'worker.databaseOutageMs', message: /at most 2147483647/ },
  { what: 'a reconcile interval past int32', edit: (t) => (t.worker.reconcileIntervalMs = INT32_OVER), path: 'worker.reconcileIntervalMs', message: /at most 2147483647/ },
  { what: 'a drain timeout past int32', edit: (t) => (t.worker.drainTimeoutMs = INT32_OVER), path: 'worker.drainTimeoutMs', message: /at most 2147483647/ },
  { what: 'a crash count past int32', edit: (t) => (t.worker.maxCrashes = INT32_OVER), path: 'worker.maxCrashes', message: /at most 2147483647/ },
  { what: 'a run attempt count past int32', edit: (t) => (t.worker.attempts = INT32_OVER), path: 'worker.attempts', message: /at most 2147483647/ },
  { what: 'a fractional worker concurrency', edit: (t) => (t.worker.concurrency = 1.5), path: 'worker.concurrency', message: /whole number/ },
  { what: 'a finished-job count past int32', edit: (t) => (t.worker.keepCompleted = { ageS: 60, count: INT32_OVER }), path: 'worker.keepCompleted.count', message: /at most 2147483647/ },
  { what: 'an event stream cap past int32', edit: (t) => (t.worker.eventsMaxLen = INT32_OVER), path: 'worker.eventsMaxLen', message: /at most 2147483647/ },
  { what: 'an HTTP port past 65535', edit: (t) => (t.worker.httpPort = 70_000), path: 'worker.httpPort', message: /at most 65535/ },

  // C. Settings that contradict each other name both paths
  { what: 'a first retry after the give-up age', edit: (t) => Object.assign(t.webhook, { retryScheduleMs: [10_000], giveUpAfterMs: 4_000 }), path: 'webhook.retryScheduleMs[0]', message: /longer than webhook\.giveUpAfterMs \(4000\).*never retried/ },
  { what: 'a retry the waits before it push past the give-up age', edit: (t) => Object.assign(t.webhook, { retryScheduleMs: [1_000, 2_000, 3_000], giveUpAfterMs: 5_000 }), path: 'webhook.retryScheduleMs[2]', message: /retry 3 to 6000 ms .*webhook\.giveUpAfterMs \(5000\)/ },
  { what: 'a page size above the result window', edit: (t) => (t.sources.music.paging = { limit: 2_000, window: { maxResults: 1_000, param: 'startblock', field: 'blockNumber' } }), path: 'jobs[0].queries[0].paging', message: /limit 2000 exceeds window\.maxResults 1000/ },
  { what: 'cursor paging without a cursor path', edit: (t) => (t.jobs[0]!.paging = { style: 'cursor' }), path: 'jobs[0].queries[0].paging', message: /needs cursorPath/ },
  { what: 'next_url paging without nextUrlPath', edit: (t) => (t.jobs[0]!.paging = { style: 'next_url' }), path: 'jobs[0].queries[0].paging', message: /style "next_url" needs nextUrlPath/ },
  { what: 'a result window around link_header paging', edit: (t) => (t.jobs[0]!.paging = { style: 'link_header', window: { maxResults: 100, param: 'startblock', field: 'blockNumber' } }), path: 'jobs[0].queries[0].paging', message: /slides page or offset paging, not link_header paging/ },
  { what: 'stopAtTotal with a result window', edit: (t) => (t.jobs[0]!.paging = { stopAtTotal: true, window: { maxResults: 100, param: 'startblock', field: 'blockNumber' } }), path: 'jobs[0].queries[0].paging', message: /stopAtTotal cannot go with a result window/ },
  { what: 'totalPagesPath with a result window', edit: (t) => (t.jobs[0]!.paging = { totalPagesPath: 'totalPages', window: { maxResults: 100, param: 'startblock', field: 'blockNumber' } }), path: 'jobs[0].queries[0].paging', message: /totalPagesPath cannot go with a result window/ },
  { what: 'both apiKey and auth', edit: (t) => (t.sources.music.auth = { type: 'none' }), path: 'sources.music.apiKey', message: /and auth are both set: keep one/ },
  { what: 'neither apiKey nor auth', edit: (t) => delete t.sources.music.apiKey, path: 'sources.music.auth', message: /is required: set auth \(or apiKey, for a Bearer key\)/ },
  { what: 'query auth without a parameter name', edit: (t) => { delete t.sources.music.apiKey; t.sources.music.auth = { type: 'query', value: '${MUSIC_API_KEY}' }; }, path: 'sources.music.auth.name', message: /expected string/i, secret: 'k-music-0123' },
  { what: 'an auth type that does not exist', edit: (t) => { delete t.sources.music.apiKey; t.sources.music.auth = { type: 'oauth', value: 'x' }; }, path: 'sources.music.auth.type', message: /must have a type: bearer, header, query, basic or none/ },
  { what: 'a header name with a space', edit: (t) => { delete t.sources.music.apiKey; t.sources.music.auth = { type: 'header', name: 'X API Key', value: 'x' }; }, path: 'sources.music.auth.name', message: /must be a header or query parameter name/ },
  { what: 'a basic auth user name with a colon', edit: (t) => { delete t.sources.music.apiKey; t.sources.music.auth = { type: 'basic', username: 'a:b', password: 'p' }; }, path: 'sources.music.auth.username', message: /must not contain ":"/ },
  { what: 'an unknown response preset', edit: (t) => (t.sources.music.response = { preset: 'soap' }), path: 'sources.music.response.preset', message: /envelope.*etherscan.*lastfm.*plain/ },
  { what: 'a data path that is not a dot path', edit: (t) => (t.sources.music.response = { dataPath: 'a..b' }), path: 'sources.music.response.dataPath', message: /must be "\." \(the whole value\) or a dot path/ },
  { what: 'a skip condition with both equals and exists', edit: (t) => (t.jobs[0]!.records = { path: 'x', kind: 'artist', skip: { path: 'date', equals: 1, exists: true } }), path: 'jobs[0].records.skip', message: /needs exactly one of equals or exists/ },

  // Retention of stored pages
  { what: 'a retention keeping no runs', edit: (t) => (t.jobs[0]!.retention = { envelopes: { keepLastRuns: 0 } }), path: 'jobs[0].retention.envelopes.keepLastRuns', message: /must be at least 1/ },
  { what: 'a source retention with an unknown setting', edit: (t) => (t.sources.music.retention = { envelopes: { maxAge: 7 } }), path: 'sources.music.retention.envelopes', message: /maxAge/ },

  // C2. Fan-out
  { what: 'a forEach with both kind and values', edit: (t) => fanOut(t, { kind: 'artist', field: 'id', values: ['a'] }), path: 'jobs[0].queries[0].forEach', message: /sets both kind and values/ },
  { what: 'a forEach with neither kind nor values', edit: (t) => fanOut(t, { param: 'user' }), path: 'jobs[0].queries[0].forEach', message: /needs kind and field .* or values/ },
  { what: 'a forEach over a kind without a field', edit: (t) => fanOut(t, { kind: 'artist' }), path: 'jobs[0].queries[0].forEach.field', message: /is required with kind/ },
  { what: 'a forEach list with a field', edit: (t) => fanOut(t, { values: ['a'], field: 'id' }), path: 'jobs[0].queries[0].forEach', message: /field and source go with kind/ },
  { what: 'a forEach list with an empty value', edit: (t) => fanOut(t, { values: ['a', ''] }), path: 'jobs[0].queries[0].forEach.values[1]', message: /must not be empty/ },
  { what: 'a forEach field that is no dot path', edit: (t) => fanOut(t, { kind: 'artist', field: 'a..b' }), path: 'jobs[0].queries[0].forEach.field', message: /dot path/ },
  { what: 'a forEach that would overwrite the query\'s own q', edit: (t) => (query(t).forEach = { values: ['a'] }), path: 'jobs[0].queries[0].forEach', message: /gives each run its q, and the query sets q too/ },
  { what: 'a forEach over another source that does not exist', edit: (t) => (query(t).forEach = { kind: 'artist', field: 'id', source: 'nowhere', param: 'artist' }), path: 'jobs[0].queries[0].forEach.source', message: /"nowhere" is not a configured source/ },
  { what: 'an unknown forEach setting', edit: (t) => (query(t).forEach = { values: ['a'], param: 'user', each: 1 }), path: 'jobs[0].queries[0].forEach', message: /each/ },
  { what: 'a forEach list that is a number', edit: (t) => fanOut(t, { values: 7 }), path: 'jobs[0].queries[0].forEach.values', message: /must be a list of values, or one string of comma-separated values/ },
  { what: 'an unknown kind of notices', edit: (t) => (t.webhook.notices = 'tick'), path: 'webhook.notices', message: /job.*run.*both/ },

  // D. Messages with a path for what used to be unclear
  { what: 'an empty file', file: { name: 'empty.yaml', bytes: '' }, path: '', message: /the file is empty/ },
  { what: 'a file of comments only', file: { name: 'comments.yaml', bytes: '# sources: later\n\n' }, path: '', message: /the file is empty/ },
  { what: 'a UTF-16 LE file with its BOM', file: { name: 'utf16le.yaml', bytes: Buffer.from(`\ufeff${validYaml()}`, 'utf16le') }, path: '', message: /the file is UTF-16; save it as UTF-8/ },
  { what: 'a UTF-16 BE file with its BOM', file: { name: 'utf16be.yaml', bytes: Buffer.from(`\ufeff${validYaml()}`, 'utf16le').swap16() }, path: '', message: /UTF-16/ },
  { what: 'a Latin-1 byte in a YAML file', file: { name: 'latin1.yaml', bytes: Buffer.from(validYaml().replace('"the"', '"th\u00e9"'), 'latin1') }, path: `line ${validYaml().split('\n').findIndex((line) => line.includes('"the"')) + 1}:${validYaml().split('\n').find((line) => line.includes('"the"'))!.indexOf('"the"') + 4}`, message: /byte \d+ \(0xe9\) is not UTF-8/ },
  { what: 'a file ending inside a character', file: { name: 'cut.yaml', bytes: Buffer.concat([Buffer.from(`${validYaml()}\n# caf`), Buffer.from([0xc3])]) }, path: `line ${validYaml().split('\n').length + 1}:6`, message: /not UTF-8/ },
  { what: 'a YAML syntax error', file: { name: 'syntax.yaml', bytes: 'sources:\n  music: [unclosed\n' }, path: 'line 3:1', message: /Flow sequence/ },
  { what: 'a key given twice', file: { name: 'twice.yaml', bytes: `${validYaml().replace(/\n}$/, ',\n"jobs": []\n}')}` }, path: `line ${validYaml().split('\n').length}:1`, message: /Map keys must be unique/ },
  { what: 'an alias to no anchor', file: { name: 'alias.yaml', bytes: 'sources: *nowhere\n' }, path: '', message: /nowhere/ },
  { what: 'a YAML list', file: { name: 'list.yaml', bytes: '- sources\n- jobs\n' }, path: '', message: /must be a mapping of sections .* not a list/ },
  { what: 'a YAML scalar', file: { name: 'scalar.yaml', bytes: 'hello\n' }, path: '', message: /not a string/ },
  { what: 'a YAML null', file: { name: 'null.yaml', bytes: '~\n' }, path: '', message: /not null/ },
  { what: 'a YAML alias that refers to itself', file: { name: 'cycle.yaml', bytes: 'sources: &s\n  music: *s\n' }, path: 'sources.music', message: /the config has a cycle: this refers back to sources$/ },
  { what: 'an unclosed ${VAR', edit: (t) => (t.sources.music.apiKey = '${MUSIC_API_KEY'), path: 'sources.music.apiKey', message: /"\$\{" that is never closed/ },
  { what: 'a ${} reference whose name starts with a digit', edit: (t) => (t.sources.music.apiKey = 'k-${1KEY}'), path: 'sources.music.apiKey', message: /not a reference/ },
  { what: 'an unclosed ${ after a good reference', edit: (t) => (t.sources.music.baseUrl = '${MUSIC_API_KEY}${BASE'), path: 'sources.music.baseUrl', message: /never closed/ },
  { what: 'an environment variable set to the empty string', edit: () => undefined, env: { MUSIC_API_KEY: '' }, path: 'sources.music.apiKey', message: /MUSIC_API_KEY is empty/ },
  { what: 'an environment variable not set', edit: () => undefined, env: {}, path: 'sources.music.apiKey', message: /MUSIC_API_KEY is not set/ },
  { what: 'a source named in capitals', edit: (t) => renameSource(t, 'Music'), path: 'sources.Music', message: /source names must be lower case/ },
  { what: 'a source name with a space', edit: (t) => renameSource(t, 'my music'), path: 'sources.my music', message: /lower case: a letter, then letters, digits/ },
  { what: 'a JS config that throws a string', file: { name: 'throws.mjs', bytes: 'throw "boom";\n' }, path: '', message: /the module threw 'boom'/ },
  { what: 'a JS config that throws an object', file: { name: 'throws-object.mjs', bytes: 'throw { code: 42 };\n' }, path: '', message: /the module threw \{ code: 42 \}/ },
  { what: 'a JS config without a default export', file: { name: 'nodefault.mjs', bytes: 'export const config = {};\n' }, path: '', message: /no default export/ },
  { what: 'a cyclic JS config', file: { name: 'cycle.mjs', bytes: `const config = ${validYaml()};\nconfig.jobs[0].queries[0].params.self = config;\nexport default config;\n` }, path: 'jobs[0].queries[0].params.self', message: /the config has a cycle: this refers back to the whole config/ },
  { what: 'a JS config nested past any setting', file: { name: 'deep.mjs', bytes: `const config = ${validYaml()};\nlet deep = [];\nfor (let i = 0; i < 10000; i++) deep = [deep];\nconfig.jobs[0].queries[0].params.deep = deep;\nexport default config;\n` }, path: `jobs[0].queries[0].params.deep${'[0]'.repeat(58)}`, message: /nests deeper than 64 levels/ },
  { what: 'a FIFO', make: (path) => void execFileSync('mkfifo', [path]), path: '', message: /not a regular file/ },
  { what: 'a directory', make: (path) => mkdir(path).then(() => undefined), path: '', message: /is a directory/ },
  { what: 'a file that is not there', make: () => undefined, path: '', message: /file not found/ },
  { what: 'a misspelt key', edit: (t) => (t.jobs[0]!.shedule = { cron: '* * * * *' }), path: 'jobs[0]', message: /shedule/ },
  { what: 'a job on an unknown source', edit: (t) => (t.jobs[0]!.source = 'video'), path: 'jobs[0].source', message: /"video" is not a configured source \(have: music\)/ },

  // D. Kinds' views and write modes
  { what: 'an unknown column type', edit: (t) => (kinds(t).artist = { columns: { plays: { path: 'playcount', type: 'int64' } } }), path: 'kinds.artist.columns.plays.type', message: /"int64" is not a column type \(have: text, integer, bigint, numeric, boolean, timestamptz, date, jsonb\)/ },
  { what: 'a column name that is not an identifier', edit: (t) => (kinds(t).artist = { columns: { 'play count': { path: 'playcount', type: 'bigint' } } }), path: 'kinds.artist.columns.play count', message: /must be an SQL identifier/ },
  { what: 'a column named as a column every view has', edit: (t) => (kinds(t).artist = { columns: { key: { path: 'id', type: 'text' } } }), path: 'kinds.artist.columns.key', message: /names a column every view has already .*two columns would have one name/ },
  { what: 'a column given twice in a YAML file', file: { name: 'column-twice.yaml', bytes: `${validYaml().replace(/\n}$/, ',\n"kinds": {"artist": {"columns": {"name": {"path": "name", "type": "text"}, "name": {"path": "title", "type": "text"}}}}\n}')}` }, path: `line ${validYaml().split('\n').length}:76`, message: /Map keys must be unique/ },
  { what: 'a time format on a column that is no time', edit: (t) => (kinds(t).artist = { columns: { plays: { path: 'playcount', type: 'bigint', from: 'unix_seconds' } } }), path: 'kinds.artist.columns.plays.from', message: /goes with type timestamptz or date, not bigint/ },
  { what: 'indexes on a kind without columns', edit: (t) => (kinds(t).artist = { indexes: ['key'] }), path: 'kinds.artist.indexes', message: /needs columns: indexes are on the typed table a kind with columns has/ },
  { what: 'an index on a column the kind has not', edit: (t) => (kinds(t).artist = { columns: { plays: { path: 'playcount', type: 'bigint' } }, indexes: [['plays', 'name']] }), path: 'kinds.artist.indexes[0]', message: /name is not a column of this kind \(have: plays, source, key, first_seen, changed_at, change_seq\)/ },
  { what: 'one index listed twice', edit: (t) => (kinds(t).artist = { columns: { plays: { path: 'playcount', type: 'bigint' } }, indexes: ['plays', ['plays']] }), path: 'kinds.artist.indexes[1]', message: /repeats the index on \(plays\)/ },
  { what: 'two kinds whose views have one name', edit: (t) => (kinds(t).artist = {}, kinds(t).singer = { view: 'artist' }), path: 'kinds.singer', message: /its view artist has the name of a view of kind "artist"/ },
  { what: 'an unknown write mode', edit: (t) => (query(t).mode = 'replace'), path: 'jobs[0].queries[0].mode', message: /"replace" is not a write mode \(have: merge, full_refresh, append\)/ },
  { what: 'full_refresh over values read from stored records', edit: (t) => (fanOut(t, { kind: 'artist', field: 'id' }), (query(t).mode = 'full_refresh')), path: 'jobs[0].queries[0].mode', message: /the list is not stable.*use forEach.values/ },
  { what: "a job's full_refresh over a query's values read from stored records", edit: (t) => (fanOut(t, { kind: 'artist', field: 'id' }), (t.jobs[0]!.mode = 'full_refresh')), path: 'jobs[0].queries[0].forEach', message: /the list is not stable/ },

  // E. References within a default
  { what: 'a default whose own reference is unset', edit: (t) => (t.sources.music.apiKey = '${NOPE:-${NOPE_EITHER}}'), path: 'sources.music.apiKey', message: /environment variable NOPE_EITHER is not set/ },
  { what: 'a default whose own reference is malformed', edit: (t) => (t.sources.music.apiKey = '${NOPE:-${1KEY}}'), path: 'sources.music.apiKey', message: /not a reference/ },
  { what: 'a default whose own reference is never closed', edit: (t) => (t.sources.music.apiKey = '${NOPE:-${MUSIC_API_KEY}'), path: 'sources.music.apiKey', message: /never closed/, secret: 'k-music-0123' },

  // F. Messages that name the setting and what it must be
  { what: 'an object as a query parameter', edit: (t) => (query(t).params = { filter: { genre: 'rock' } }), path: 'jobs[0].queries[0].params.filter', message: /must be a string, number or boolean \(a request parameter's value\), not an object/ },
  { what: 'a list as a job parameter', edit: (t) => (t.jobs[0]!.params = { tags: ['a', 'b'] }), path: 'jobs[0].params.tags', message: /not a list/ },
  { what: 'null as a source parameter', edit: (t) => (t.sources.music.params = { format: null }), path: 'sources.music.params.format', message: /not null/ },
  { what: 'a YAML list 10,000 deep', file: { name: 'deep-flow.yaml', bytes: `sources: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n` }, path: /^line 1:\d+$/, message: /nests lists or mappings deeper than the parser can follow \(a config needs fewer than 64 levels\)/ },
  { what: 'YAML mappings 10,000 deep', file: { name: 'deep-block.yaml', bytes: `sources:\n${Array.from({ length: 10_000 }, (_, depth) => `${' '.repeat(depth + 1)}a:`).join('\n')}\n` }, path: /^line \d+:\d+$/, message: /deeper than the parser can follow/ },

  // G. Refused at check rather than failing later
  ...['pg_catalog', 'information_schema', 'pg_toast', 'pg_temp', 'pg_temp_3'].map((schema): Row => ({ what: `views in Postgres's schema ${schema}`, edit: (t) => (sections(t).analytics = { schema }), path: 'analytics.schema', message: /is a schema of Postgres itself/ })),
  { what: "views in the migrations' schema", edit: (t) => (sections(t).analytics = { schema: 'drizzle' }), path: 'analytics.schema', message: /migrations keep their journal/ },
  { what: 'a kind named records with its views in public', edit: (t) => Object.assign(sections(t), { analytics: { schema: 'public' }, kinds: { records: {} } }), path: 'kinds.records', message: /its view records would take the name of one of feedsync's tables/ },
  { what: 'a kind whose view is named envelopes, in public', edit: (t) => Object.assign(sections(t), { analytics: { schema: 'public' }, kinds: { artist: { view: 'envelopes' } } }), path: 'kinds.artist.view', message: /its view envelopes would take/ },
  { what: "a kind whose _history view is a table's index, in public", edit: (t) => Object.assign(sections(t), { analytics: { schema: 'public' }, kinds: { sync_runs_job: {} } }), path: 'kinds.sync_runs_job', message: /its view sync_runs_job would take/ },
  { what: 'an API key with a line feed', edit: (t) => (t.sources.music.apiKey = 'k-music\nX-Injected: 1'), path: 'sources.music.apiKey', message: /must not contain a line break \(CR or LF\) or a NUL: it is sent in a request header/, secret: 'X-Injected' },
  { what: 'a header key with a carriage return', edit: (t) => { delete t.sources.music.apiKey; t.sources.music.auth = { type: 'header', name: 'X-API-Key', value: 'k\r\nX-Other: 1' }; }, path: 'sources.music.auth.value', message: /line break/ },
  { what: 'a bearer key with a NUL', edit: (t) => { delete t.sources.music.apiKey; t.sources.music.auth = { type: 'bearer', value: 'k\u0000k' }; }, path: 'sources.music.auth.value', message: /or a NUL/ },
  { what: 'a NUL in a query parameter', edit: (t) => (query(t).params = { method: 'artist\u0000search' }), path: 'jobs[0].queries[0].params.method', message: /must not contain a NUL character/ },
  { what: 'a NUL in a source parameter', edit: (t) => (t.sources.music.params = { format: 'js\u0000on' }), path: 'sources.music.params.format', message: /NUL/ },
  { what: 'an empty userAgent contact', edit: (t) => (t.sources.music.userAgent = ''), path: 'sources.music.userAgent', message: /must not be empty: give a URL or an e-mail address/ },
  { what: 'a userAgent contact with a line feed', edit: (t) => (t.sources.music.userAgent = 'ops@example.org\nX-Injected: 1'), path: 'sources.music.userAgent', message: /must not contain a control character \(a line break, tab or NUL\): it is sent in the User-Agent header/ },
  { what: 'a userAgent contact from ${ENV} with a carriage return', edit: (t) => (t.sources.music.userAgent = '${CONTACT}'), env: { ...ENV, CONTACT: 'ops@example.org\r' }, path: 'sources.music.userAgent', message: /control character/ },
  { what: 'a userAgent contact with a DEL character', edit: (t) => (t.sources.music.userAgent = 'ops@example.org\u007f'), path: 'sources.music.userAgent', message: /control character/ },
  { what: 'a userAgent contact with non-ASCII letters', edit: (t) => (t.sources.music.userAgent = 'josé@example.org'), path: 'sources.music.userAgent', message: /must be printable ASCII \(percent-encode/ },
  { what: 'a userAgent contact with a parenthesis', edit: (t) => (t.sources.music.userAgent = 'https://example.org/a)b'), path: 'sources.music.userAgent', message: /must not contain "\(", "\)" or "\\"/ },
  { what: 'a userAgent contact of spaces', edit: (t) => (t.sources.music.userAgent = '   '), path: 'sources.music.userAgent', message: /must not start or end with a space/ },
  { what: 'a userAgent contact of 201 characters', edit: (t) => (t.sources.music.userAgent = `https://example.org/${'a'.repeat(181)}`), path: 'sources.music.userAgent', message: /must be at most 200 characters/ },
  { what: 'a userAgent contact that is a number', edit: (t) => (t.sources.music.userAgent = 42), path: 'sources.music.userAgent', message: /expected string/ },
  ...['bad host name', 'http://127.0.0.1', '127.0.0.1:9464', '-host', 'a..b'].map((httpHost): Row => ({ what: `an httpHost of ${JSON.stringify(httpHost)}`, edit: (t) => (t.worker.httpHost = httpHost), path: 'worker.httpHost', message: /must be an IP address \(127\.0\.0\.1, ::1, 0\.0\.0\.0\) or a host name/ })),
  { what: 'a page age in days past any interval', edit: (t) => (t.sources.music.retention = { envelopes: { maxAgeDays: 2_147_483_647 } }), path: 'sources.music.retention.envelopes.maxAgeDays', message: /at most 36500 \(a century/ },
  { what: "a job's page age of a century and a day", edit: (t) => (t.jobs[0]!.retention = { envelopes: { maxAgeDays: 36_501 } }), path: 'jobs[0].retention.envelopes.maxAgeDays', message: /at most 36500/ },

  // H. Settings that were dropped or changed in silence
  { what: 'credentials in a source URL', edit: (t) => (t.sources.music.baseUrl = 'http://me:s3cretpw@127.0.0.1:1'), path: 'sources.music.baseUrl', message: /must not hold a user name or password \(user:pass@\).*auth: \{type: basic/, secret: 's3cretpw' },
  { what: 'a user name alone in a source URL', edit: (t) => (t.sources.music.baseUrl = 'https://me@api.example'), path: 'sources.music.baseUrl', message: /user:pass@/ },
  { what: 'credentials in the webhook URL', edit: (t) => (t.webhook.baseUrl = 'https://hook:s3cretpw@hooks.example/in'), path: 'webhook.baseUrl', message: /must not hold a user name or password.*signature/, secret: 's3cretpw' },
  { what: 'a source named __proto__', file: { name: 'proto-source.yaml', bytes: validYaml().replace('"music": {', '"__proto__": {"baseUrl": "http://127.0.0.1:1", "apiKey": "x", "path": "/"}, "music": {') }, path: 'sources.__proto__', message: /is a name every JavaScript object has/ },
  ...['constructor', 'toString', 'hasOwnProperty'].map((name): Row => ({ what: `a source named ${name}`, edit: (t) => renameSource(t, name), path: `sources.${name}`, message: /is a name every JavaScript object has/ })),
  { what: 'a kind named constructor', edit: (t) => (sections(t).kinds = { constructor: {} }), path: 'kinds.constructor', message: /is a name every JavaScript object has/ },
  { what: 'a query parameter named __proto__', file: { name: 'proto-param.yaml', bytes: validYaml().replace('"method": "artist.search"', '"__proto__": {"x": 1}') }, path: 'jobs[0].queries[0].params.__proto__', message: /is a name every JavaScript object has/ },
  { what: 'records at __proto__', edit: (t) => (t.jobs[0]!.records = { path: '__proto__', kind: 'artist' }), path: 'jobs[0].records.path', message: /must not go through __proto__/ },
  { what: 'a record key under __proto__', edit: (t) => (t.jobs[0]!.records = { path: 'items', key: 'a.__proto__.b', kind: 'artist' }), path: 'jobs[0].records.key', message: /__proto__/ },
  { what: 'a column read from __proto__', edit: (t) => (sections(t).kinds = { artist: { columns: { name: { path: '__proto__.name', type: 'text' } } } }), path: 'kinds.artist.columns.name.path', message: /must not go through __proto__/ },
  { what: 'a TypeScript config with named exports only', file: { name: 'named.ts', bytes: `export const sources = ${JSON.stringify(validTree().sources)};\nexport const jobs = ${JSON.stringify(validTree().jobs)};\n` }, path: '', message: /the module has no default export/ },
  { what: 'a TypeScript config that exports nothing', file: { name: 'nothing.ts', bytes: 'const config = {};\n' }, path: '', message: /no default export/ },
  { what: 'a TypeScript config that exits 0 while loading', file: { name: 'exits.ts', bytes: `process.exit(0);\nexport default ${validYaml()};\n` }, path: '', message: /the module called process\.exit\(0\) while loading/ },
  { what: 'a JS config that exits 3 while loading', file: { name: 'exits.mjs', bytes: `process.exit(3);\nexport default ${validYaml()};\n` }, path: '', message: /process\.exit\(3\)/ },
];

/** The tree's kinds section, made if absent. */
function kinds(tree: Tree): Record<string, unknown> {
  return (sections(tree).kinds ??= {});
}

/** The tree as its sections, to set those ConfigTree leaves out (kinds, analytics). */
function sections(tree: Tree): { kinds?: Record<string, unknown>; analytics?: Record<string, unknown> } {
  return tree as unknown as { kinds?: Record<string, unknown>; analytics?: Record<string, unknown> };
}

function renameSource(tree: Tree, name: string): void {
  const { music, ...others } = tree.sources;
  tree.sources = { ...others, [name]: music } as Tree['sources'];
  tree.jobs[0]!.source = name;
}
