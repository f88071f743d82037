/*
 * Requests to a worker's HTTP port (its endpoints, bull-board at /admin/queues and the history
 * pages, with the dashboard on) one a row: the request, the status it gets and a fragment of its
 * answer. OpsServer.badRequests.integration.test.ts runs them.
 */

export interface OpsRequestRow {
  what: string;
  path: string;
  method?: string;
  /** The Authorization header; none when left out. */
  authorization?: string;
  status: number;
  says: RegExp;
}

/** The dashboard's credentials in OpsServer.badRequests.integration.test.ts. */
export const OPS_USER = { user: 'ops', password: 'dash-pw-0123' };

const basic = (userPass: string, scheme = 'Basic') => `${scheme} ${Buffer.from(userPass).toString('base64')}`;
const RIGHT = `${OPS_USER.user}:${OPS_USER.password}`;

export const opsRequestRows: OpsRequestRow[] = [
  { what: 'the dashboard without credentials', path: '/admin/queues', status: 401, says: /"message":"authentication required"/ },
  { what: "the dashboard's API without credentials", path: '/admin/queues/api/queues', status: 401, says: /authentication required/ },
  { what: 'the dashboard with a wrong password', path: '/admin/queues', authorization: basic(`${OPS_USER.user}:wrong`), status: 401, says: /authentication required/ },
  { what: 'the dashboard with the user name in capitals', path: '/admin/queues', authorization: basic(`OPS:${OPS_USER.password}`), status: 401, says: /authentication required/ },
  { what: 'the dashboard with the password and more after a colon', path: '/admin/queues', authorization: basic(`${RIGHT}:x`), status: 401, says: /authentication required/ },
  { what: 'the dashboard with the password as a bearer token', path: '/admin/queues', authorization: `Bearer ${OPS_USER.password}`, status: 401, says: /authentication required/ },
  { what: 'the dashboard with a Basic scheme and no credentials', path: '/admin/queues', authorization: 'Basic', status: 401, says: /authentication required/ },
  { what: 'the dashboard with credentials that are not base64', path: '/admin/queues', authorization: 'Basic %%%', status: 401, says: /authentication required/ },
  { what: 'the dashboard under the lower-case scheme basic', path: '/admin/queues/api/queues', authorization: basic(RIGHT, 'basic'), status: 200, says: /"queues":\[/ },
  { what: 'the dashboard under the scheme BASIC', path: '/admin/queues/api/queues', authorization: basic(RIGHT, 'BASIC'), status: 200, says: /"queues":\[/ },
  { what: 'the history pages without credentials', path: '/runs', status: 401, says: /authentication required/ },
  { what: 'the history pages under the lower-case scheme basic', path: '/runs', authorization: basic(RIGHT, 'basic'), status: 200, says: /<title>/ },
  { what: 'an unknown path', path: '/nope', status: 404, says: /^\{"status":"error","message":"not found"\}$/ },
  { what: 'a path beside the dashboard', path: '/admin/queuesx', status: 404, says: /not found/ },
  { what: 'the health check with a trailing slash', path: '/healthz/', status: 404, says: /not found/ },
  { what: 'a POST to the health check', path: '/healthz', method: 'POST', status: 404, says: /not found/ },
  { what: 'a DELETE of the metrics', path: '/metrics', method: 'DELETE', status: 404, says: /not found/ },
  { what: 'a PUT to the readiness check', path: '/readyz', method: 'PUT', status: 404, says: /not found/ },
  { what: 'a POST to the history pages', path: '/runs', method: 'POST', authorization: basic(RIGHT), status: 404, says: /not found/ },
  { what: 'a path that climbs out with ..', path: '/admin/queues/../../etc/passwd', status: 401, says: /authentication required/ },
];
