import { startLocalApi } from './localApi.js';
import { realBody, recordedBytes } from './realBodies.js';

/** Which recorded body answers which requests: those whose query has every parameter of `when`, each with its value. */
export interface ReplayRoute {
  /** Last.fm: `{method: 'user.getRecentTracks', page: '2'}`; Etherscan: `{module: 'account', action: 'txlist', page: '1'}`. */
  when: Readonly<Record<string, string>>;
  /** The body, by its file in the real-bodies manifest (`lastfm/artist-search.json`). */
  file: string;
}

/** A request the replay upstream got: its path and its query parameters (the last of a repeated one). */
export interface ReplayedRequest {
  path: string;
  params: Record<string, string>;
}

export interface ReplayUpstream {
  baseUrl: string;
  /** Every request so far, in the order they came. */
  requests: ReplayedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on a free loopback port that answers each request with the recorded body the
 * first matching route names: its bytes as the source holds them, with the HTTP status the manifest
 * recorded (200 when it recorded none) and `content-type: application/json`. A request no route
 * matches gets a 404 in plain text naming it, which fails the run that sent it.
 */
export async function startReplayUpstream(routes: readonly ReplayRoute[]): Promise<ReplayUpstream> {
  // Read up front: a route naming a file the manifest does not list fails the test here, not mid-run.
  const answers = routes.map((route) => ({ when: Object.entries(route.when), status: realBody(route.file).httpStatus ?? 200, body: recordedBytes(route.file) }));
  const requests: ReplayedRequest[] = [];
  const api = await startLocalApi((request, response) => {
    const url = new URL(request.url ?? '/', 'http://replay');
    const params = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, params });
    const answer = answers.find(({ when }) => when.every(([name, value]) => params[name] === value));
    if (answer === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`no recorded body for ${url.pathname}${url.search}`);
      return;
    }
    response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': answer.body.length }).end(answer.body);
  });
  return { baseUrl: api.baseUrl, requests, close: () => api.close() };
}
