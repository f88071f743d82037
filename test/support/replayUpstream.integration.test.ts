import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedBytes } from './realBodies.js';
import { startReplayUpstream, type ReplayUpstream } from './replayUpstream.js';

let replay: ReplayUpstream;

beforeAll(async () => {
  replay = await startReplayUpstream([
    { when: { method: 'user.getRecentTracks', page: '2' }, file: 'lastfm/user-getrecenttracks-empty-old-style.json' },
    { when: { method: 'user.getRecentTracks' }, file: 'lastfm/user-getrecenttracks-limit1.json' },
    { when: { module: 'account', action: 'txlist' }, file: 'etherscan/account-txlist-one-item.json' },
  ]);
});
afterAll(async () => {
  await replay.close();
});

const get = async (pathAndQuery: string) => {
  const response = await fetch(`${replay.baseUrl}${pathAndQuery}`);
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
};

describe('replay upstream', () => {
  it('answers a request with the body of the first route it matches, byte for byte, as JSON with HTTP 200', async () => {
    const answer = await get('/2.0/?method=user.getRecentTracks&user=rj&page=2&format=json');
    expect(answer).toEqual({ status: 200, type: 'application/json', bytes: recordedBytes('lastfm/user-getrecenttracks-empty-old-style.json') });
  });

  it('matches a route on the parameters it names, whatever else the request has', async () => {
    const [lastfm, etherscan] = await Promise.all([get('/2.0/?method=user.getRecentTracks&page=1&limit=1'), get('/v2/api?chainid=1&module=account&action=txlist&page=3')]);
    expect(lastfm.bytes).toEqual(recordedBytes('lastfm/user-getrecenttracks-limit1.json'));
    expect(etherscan.bytes).toEqual(recordedBytes('etherscan/account-txlist-one-item.json'));
  });

  it('answers a request no route matches with a 404 that names it', async () => {
    const answer = await get('/2.0/?method=artist.getInfo');
    expect(answer.status).toBe(404);
    expect(answer.bytes.toString()).toBe('no recorded body for /2.0/?method=artist.getInfo');
  });

  it('records every request it got: its path and its parameters', async () => {
    const before = replay.requests.length;
    await get('/v2/api?chainid=8453&module=account&action=txlist&offset=20');
    expect(replay.requests.slice(before)).toEqual([{ path: '/v2/api', params: { chainid: '8453', module: 'account', action: 'txlist', offset: '20' } }]);
  });
});
