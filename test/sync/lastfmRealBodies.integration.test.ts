import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config } from '../../src/config/schema.js';
import type { UpstreamError } from '../../src/http/UpstreamError.js';
import { realBody, recordedJson } from '../support/realBodies.js';
import { at, pageRoutes, recordedRunTests, type RecordedRun } from '../support/recordedRuns.js';
import { exampleQuery, loadExample, replayRun, type ReplayRun } from '../support/replaySync.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

/*
 * examples/lastfm.yaml's settings (the lastfm preset, its paging, records paths and keys) run with
 * syncQuery against bodies the real Last.fm sent (test/fixtures/real-bodies). A query asks for the
 * page size the recording asked for, and a body that says more pages follow is read with
 * maxPages set to the pages recorded: those runs end partial, as a user would want them to.
 */

let database: TestDatabase;
let config: Config;

beforeAll(async () => {
  [database, config] = await Promise.all([createTestDatabase(), loadExample('lastfm')]);
});
afterAll(async () => {
  await database.drop();
});

/** One recorded page of a listing: the page size it was asked with, and no page after it. */
const onePage = (limit: number) => ({ paging: { limit, maxPages: 1 } });

/** A Last.fm method the example has no job for, read with the example's source and a records path of its own. */
const method = (name: string, qParam: string, records: { path: string; key: string }, paging = {}) => (c: Config) =>
  exampleQuery(c, 'artists', { params: { method: name }, qParam, records: { ...records, kind: 'lastfm_extra' }, paging }, 1);

/** Last.fm's track playing now, which the listening history leaves out (records.skip). */
const scrobbled = (item: unknown) => at(item, '@attr.nowplaying') !== 'true';

const RECORDED: RecordedRun[] = [
  { files: ['lastfm/artist-search.json'], query: (c) => exampleQuery(c, 'artists', onePage(5)), items: 'results.artistmatches.artist', key: ['url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/artist-getinfo.json'], query: (c) => exampleQuery(c, 'artists', {}, 1), items: 'artist', key: ['url'], ends: ['succeeded', 'short_page'] },
  // artist.getSimilar has no pages: asked for page 2, Last.fm sends page 1 again, which ends paging.
  { files: ['lastfm/artist-getsimilar.json'], query: (c) => exampleQuery(c, 'similar-artists', { paging: { limit: 5 } }), items: 'similarartists.artist', key: ['$query', 'url'], ends: ['succeeded', 'repeated_page'] },
  { files: ['lastfm/album-search-page2.json'], query: (c) => exampleQuery(c, 'albums', onePage(3)), items: 'results.albummatches.album', key: ['url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/album-search-single-object.json'], query: (c) => exampleQuery(c, 'albums', onePage(1)), items: 'results.albummatches.album', key: ['url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/tag-gettopartists.json'], query: (c) => exampleQuery(c, 'tag-charts', onePage(20)), items: 'topartists.artist', key: ['$query', 'url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/tag-gettoptracks.json'], query: (c) => exampleQuery(c, 'tag-charts', onePage(2), 1), items: 'tracks.track', key: ['$query', 'url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/track-search-page4.json'], query: (c) => exampleQuery(c, 'tracks', onePage(5)), items: 'results.trackmatches.track', key: ['url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/user-getrecenttracks-page1-nowplaying.json'], query: (c) => exampleQuery(c, 'listening-history', onePage(50)), items: 'recenttracks.track', key: ['$query', 'date.uts'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/user-getrecenttracks-nowplaying-limit1.json'], query: (c) => exampleQuery(c, 'listening-history', onePage(1)), items: 'recenttracks.track', key: ['$query', 'date.uts'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/user-getrecenttracks-limit1.json'], query: (c) => exampleQuery(c, 'listening-history', onePage(1)), items: 'recenttracks.track', key: ['$query', 'date.uts'], ends: ['partial', 'max_pages'] },
  // Methods the example has no job for.
  { files: ['lastfm/album-getinfo.json'], query: method('album.getInfo', 'album', { path: 'album.tracks.track', key: 'url' }), items: 'album.tracks.track', key: ['url'], ends: ['succeeded', 'short_page'] },
  { files: ['lastfm/album-getinfo-single-track-object.json'], query: method('album.getInfo', 'album', { path: 'album.tracks.track', key: 'url' }), items: 'album.tracks.track', key: ['url'], ends: ['succeeded', 'short_page'] },
  // album.getTopTags sends all its tags whatever the page size, and page 1 again for page 2.
  { files: ['lastfm/album-gettoptags-compact.json'], query: method('album.getTopTags', 'album', { path: 'toptags.tag', key: 'name' }), items: 'toptags.tag', key: ['name'], ends: ['succeeded', 'repeated_page'] },
  { files: ['lastfm/chart-gettopartists.json'], query: method('chart.getTopArtists', 'q', { path: 'artists.artist', key: 'url' }, { limit: 5, maxPages: 1, totalPath: ['artists.@attr.total'] }), items: 'artists.artist', key: ['url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/geo-gettopartists.json'], query: method('geo.getTopArtists', 'country', { path: 'topartists.artist', key: 'url' }, { limit: 5, maxPages: 1, totalPath: ['topartists.@attr.total'] }), items: 'topartists.artist', key: ['url'], ends: ['partial', 'max_pages'] },
  { files: ['lastfm/tag-gettopalbums.json'], query: method('tag.getTopAlbums', 'tag', { path: 'albums.album', key: 'url' }, { limit: 5, maxPages: 1, totalPath: ['albums.@attr.total'] }), items: 'albums.album', key: ['url'], ends: ['partial', 'max_pages'] },
];

/** The run of `query` against `file`, which answers every request for its method. */
const runOn = (file: string, query: ResolvedQuery): Promise<ReplayRun> => replayRun(database, pageRoutes([file]), query);

describe('examples/lastfm.yaml on real Last.fm bodies: records', () => {
  recordedRunTests(RECORDED, () => ({ database, config }), scrobbled);

  it('reads a list of one sent as an object (album.search of one per page) as one record', async () => {
    const album = at(recordedJson('lastfm/album-search-single-object.json'), 'results.albummatches.album');
    expect(Array.isArray(album)).toBe(false);
    const { records } = await runOn('lastfm/album-search-single-object.json', exampleQuery(config, 'albums', onePage(1)));
    expect(records.map(({ payload }) => payload)).toEqual([album]);
  });

  it('leaves out the track playing now, as records.skip says, and counts it as filtered', async () => {
    const { records, filtered } = await runOn('lastfm/user-getrecenttracks-nowplaying-limit1.json', exampleQuery(config, 'listening-history', onePage(1)));
    expect(filtered).toBe(1);
    expect(records).toHaveLength(1);
    expect(records[0]!.payload).toHaveProperty('date');
  });
});

describe('examples/lastfm.yaml on real Last.fm bodies: paging', () => {
  it("reads a search's total from opensearch:totalResults, and names it when the run stops short of it", async () => {
    const { summary, expectedTotal } = await runOn('lastfm/album-search-page2.json', exampleQuery(config, 'albums', onePage(3)));
    expect(expectedTotal).toBe(7);
    expect(summary.shortfall?.message).toContain('of the 7 the upstream states');
  });

  it("reads a chart's total from its @attr", async () => {
    const { expectedTotal } = await runOn('lastfm/tag-gettopartists.json', exampleQuery(config, 'tag-charts', onePage(20)));
    expect(expectedTotal).toBe(5474);
  });

  it("reads the recent tracks' total from their @attr, the track playing now not among the 50 stored", async () => {
    const { summary, expectedTotal } = await runOn('lastfm/user-getrecenttracks-page1-nowplaying.json', exampleQuery(config, 'listening-history', onePage(50)));
    expect(expectedTotal).toBe(40010);
    expect(summary.counts.new).toBe(50);
  });

  it('asks for the page after a full page of recent tracks when @attr says more follow', async () => {
    const query = exampleQuery(config, 'listening-history', { paging: { limit: 1, maxPages: 2 } });
    const { requests } = await runOn('lastfm/user-getrecenttracks-limit1.json', query);
    expect(requests.map(({ params }) => params.page)).toEqual(['1', '2']);
  });
});

describe('examples/lastfm.yaml on real Last.fm bodies: nothing found', () => {
  it.each([
    ['lastfm/album-search-empty.json', 'a search matching nothing ("albummatches": "\\n")', 'albums'],
    ['lastfm/tag-gettopartists-empty.json', 'a chart with no artists ("artist": [], totalPages "0")', 'tag-charts'],
    ['lastfm/user-getrecenttracks-empty-old-style.json', 'the old empty recent tracks (no track, no @attr, totals inline)', 'listening-history'],
  ])('%s: reads %s as an empty page, and succeeds', async (file, _what, job) => {
    const { summary, records, requests } = await runOn(file, exampleQuery(config, job));
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'empty_page', pages: 1, counts: { new: 0 } });
    expect(records).toEqual([]);
    expect(requests).toHaveLength(1);
  });
});

describe('examples/lastfm.yaml on real Last.fm bodies: errors', () => {
  it.each([
    ['lastfm/error10-invalid-api-key.json', 'auth'],
    ['lastfm/error9-invalid-session-key.json', 'auth'],
    ['lastfm/album-getinfo-error6-album-not-found.json', 'rejected'],
    ['lastfm/album-search-error6-missing-param.json', 'rejected'],
    ['lastfm/artist-getinfo-error6-not-found.json', 'rejected'],
    ['lastfm/artist-gettoptracks-error6-not-found.json', 'rejected'],
    ['lastfm/geo-gettoptracks-error6-country-required.json', 'rejected'],
    ['lastfm/library-getartists-error6-page-out-of-bounds.json', 'rejected'],
    ['lastfm/user-getrecenttracks-error6-no-user.json', 'rejected'],
    ['lastfm/user-getrecenttracks-error6-missing-user-param.json', 'rejected'],
  ])('%s: fails the run as %s, without asking again', async (file, kind) => {
    const code = String(at(recordedJson(file), 'error'));
    const { summary, requests, records } = await runOn(file, exampleQuery(config, 'artists', { params: { method: realBody(file).method } }, 1));
    expect(summary).toMatchObject({ status: 'failed', final: true, error: { kind } });
    expect((summary.error as UpstreamError).message).toContain(`code ${code}`);
    expect(requests).toHaveLength(1);
    expect(records).toEqual([]);
  });
});
