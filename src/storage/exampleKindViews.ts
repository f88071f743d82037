import { sql, type SQL } from 'drizzle-orm';
import { jsonb, numeric, pgView, text, timestamp } from 'drizzle-orm/pg-core';
import { records } from './schema.js';

// Typed views for analysts over the record kinds of the example config, feedsync.yaml (artist,
// track, listen, transaction, block, contract): they belong to that config's kinds, not to
// feedsync's own tables, and views generated from configuration (issue 17) will replace them.
// drizzle.config.ts lists this file beside schema.ts, so that migrations keep them.
// Upstream values arrive as JSON strings or numbers; a value that is not a number becomes NULL
// rather than breaking the view.
const field = (path: string): SQL => sql.raw(`payload #>> '{${path.split('.').join(',')}}'`);
const num = (path: string): SQL => sql`case when ${field(path)} ~ '^-?[0-9]+(\\.[0-9]+)?$' then (${field(path)})::numeric end`;
const unixTime = (path: string): SQL => sql`to_timestamp(${num(path)})`;
const nameOf = (path: string): SQL => sql`coalesce(${field(`${path}.name`)}, ${field(path)})`;

export const artistsView = pgView('artists', {
  source: text('source').notNull(),
  key: text('key').notNull(),
  name: text('name'),
  mbid: text('mbid'),
  url: text('url'),
  playcount: numeric('playcount'),
  listeners: numeric('listeners'),
  tags: jsonb('tags'),
  changedAt: timestamp('changed_at', { withTimezone: true }),
}).as(sql`select source, key, ${field('name')} as name, ${field('mbid')} as mbid, ${field('url')} as url, ${num('playcount')} as playcount, ${num('listeners')} as listeners, payload -> 'tags' as tags, changed_at from ${records} where kind = 'artist'`);

export const tracksView = pgView('tracks', {
  source: text('source').notNull(),
  key: text('key').notNull(),
  name: text('name'),
  artist: text('artist'),
  album: text('album'),
  durationS: numeric('duration_s'),
  playcount: numeric('playcount'),
  listeners: numeric('listeners'),
  mbid: text('mbid'),
  changedAt: timestamp('changed_at', { withTimezone: true }),
}).as(sql`select source, key, ${field('name')} as name, ${nameOf('artist')} as artist, ${nameOf('album')} as album, ${num('duration')} as duration_s, ${num('playcount')} as playcount, ${num('listeners')} as listeners, ${field('mbid')} as mbid, changed_at from ${records} where kind = 'track'`);

export const listensView = pgView('listens', {
  source: text('source').notNull(),
  key: text('key').notNull(),
  username: text('username'),
  track: text('track'),
  artist: text('artist'),
  album: text('album'),
  playedAt: timestamp('played_at', { withTimezone: true }),
}).as(sql`select source, key, case when position('|' in key) > 0 then split_part(key, '|', 1) end as username, ${field('name')} as track, ${nameOf('artist')} as artist, ${nameOf('album')} as album, ${unixTime('uts')} as played_at from ${records} where kind = 'listen'`);

export const transactionsView = pgView('transactions', {
  source: text('source').notNull(),
  hash: text('hash').notNull(),
  blockNumber: numeric('block_number'),
  transactionIndex: numeric('transaction_index'),
  fromAddress: text('from_address'),
  toAddress: text('to_address'),
  valueWei: numeric('value_wei'),
  gas: numeric('gas'),
  gasPrice: numeric('gas_price'),
  status: text('status'),
  minedAt: timestamp('mined_at', { withTimezone: true }),
}).as(sql`select source, key as hash, ${num('blockNumber')} as block_number, ${num('transactionIndex')} as transaction_index, ${field('from')} as from_address, ${field('to')} as to_address, ${num('value')} as value_wei, ${num('gas')} as gas, ${num('gasPrice')} as gas_price, ${field('status')} as status, ${unixTime('timeStamp')} as mined_at from ${records} where kind = 'transaction'`);

export const blocksView = pgView('blocks', {
  source: text('source').notNull(),
  key: text('key').notNull(),
  number: numeric('number'),
  hash: text('hash'),
  parentHash: text('parent_hash'),
  txCount: numeric('tx_count'),
  minedAt: timestamp('mined_at', { withTimezone: true }),
}).as(sql`select source, key, ${num('number')} as number, ${field('hash')} as hash, ${field('parentHash')} as parent_hash, ${num('txCount')} as tx_count, ${unixTime('timestamp')} as mined_at from ${records} where kind = 'block'`);

export const contractsView = pgView('contracts', {
  source: text('source').notNull(),
  address: text('address').notNull(),
  contractName: text('contract_name'),
  compilerVersion: text('compiler_version'),
  abi: text('abi'),
  sourceCode: text('source_code'),
  changedAt: timestamp('changed_at', { withTimezone: true }),
}).as(sql`select source, key as address, ${field('ContractName')} as contract_name, ${field('CompilerVersion')} as compiler_version, ${field('ABI')} as abi, ${field('SourceCode')} as source_code, changed_at from ${records} where kind = 'contract'`);
