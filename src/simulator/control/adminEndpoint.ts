import { ENDPOINTS, type EndpointName, type Faults, type FaultsResult } from './faults.js';
import { errorReply, successReply, type RequestHandler } from '../server/reply.js';
import type { EndpointStats } from './RequestStats.js';

/** What the admin routes can see and change. */
export interface SimulatorControl {
  faults: (endpoint: EndpointName) => Faults;
  setFaults: (endpoint: EndpointName, input: unknown) => FaultsResult;
  stats: () => Record<EndpointName, EndpointStats>;
  resetStats: () => void;
  /** Faults back to the start-up ones, stats and webhook logs cleared. */
  reset: () => void;
}

const FAULTS_PATH = /^\/faults\/([a-z]+)\/?$/;

/**
 * Routes: `GET /faults`, `GET|PUT /faults/<music|explorer|webhook>` (PUT replaces that endpoint's
 * faults with the JSON body), `GET /stats`, `POST /stats/reset`, `POST /reset`.
 */
export function adminHandler(control: SimulatorControl): RequestHandler {
  return (request) => {
    const route = `${request.method} ${request.url.pathname.replace(/\/$/, '')}`;
    switch (route) {
      case 'GET /faults':
        return successReply(Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, control.faults(endpoint)])));
      case 'GET /stats':
        return successReply(control.stats());
      case 'POST /stats/reset':
        control.resetStats();
        return successReply({}, 'stats reset');
      case 'POST /reset':
        control.reset();
        return successReply({}, 'reset');
    }
    const faultsPath = FAULTS_PATH.exec(request.url.pathname);
    const endpoint = ENDPOINTS.find((name) => name === faultsPath?.[1]);
    if (endpoint === undefined) return errorReply(404, 'NOT_FOUND', `No admin route ${route}`);
    if (request.method === 'GET') return successReply(control.faults(endpoint));
    if (request.method !== 'PUT') return errorReply(405, 'METHOD_NOT_ALLOWED', 'Use GET or PUT');
    let input: unknown;
    try {
      input = request.body.trim() === '' ? {} : JSON.parse(request.body);
    } catch {
      return errorReply(400, 'INVALID_JSON', 'The body must be JSON');
    }
    const result = control.setFaults(endpoint, input);
    if (!result.ok) return errorReply(400, 'INVALID_FAULTS', result.error.message);
    return successReply(result.faults, `${endpoint} faults set`);
  };
}
