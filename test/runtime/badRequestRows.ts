/*
 * Requests the history pages (`feedsync history`, and a worker's with the dashboard on) must
 * refuse, one a row: the request, the status it gets and a fragment of its answer.
 * HistoryServer.badRequests.integration.test.ts runs them.
 */

export interface BadRequestRow {
  what: string;
  path: string;
  method?: string;
  /** The Authorization header; the right credentials when left out, none when null. */
  authorization?: string | null;
  status: number;
  says: RegExp;
}

const RUN = '00000000-0000-4000-8000-000000000000';
const basic = (userPass: string, scheme = 'Basic') => `${scheme} ${Buffer.from(userPass).toString('base64')}`;

export const badRequestRows: BadRequestRow[] = [
  { what: 'page 0 of a job', path: '/runs/jobs/artists?page=0', status: 400, says: /page must be a whole number from 1 to 100,000/ },
  { what: 'a negative page', path: '/runs/jobs/artists?page=-1', status: 400, says: /page must be a whole number/ },
  { what: 'a page that is a word', path: '/runs/jobs/artists?page=two', status: 400, says: /page must be a whole number/ },
  { what: 'a page in exponent form', path: '/runs/jobs/artists?page=1e3', status: 400, says: /page must be a whole number/ },
  { what: 'a fractional page', path: '/runs/jobs/artists?page=1.5', status: 400, says: /page must be a whole number/ },
  { what: 'a page past the last allowed', path: '/runs/jobs/artists?page=100001', status: 400, says: /from 1 to 100,000/ },
  { what: 'a page of 20 digits', path: '/runs/jobs/artists?page=99999999999999999999', status: 400, says: /from 1 to 100,000/ },
  { what: 'an empty page', path: '/runs/jobs/artists?page=', status: 400, says: /page must be a whole number/ },
  { what: 'a page given twice', path: '/runs/jobs/artists?page=1&page=2', status: 400, says: /query parameter page is given more than once/ },
  { what: 'a status that does not exist', path: '/runs/jobs/artists?status=bogus', status: 400, says: /status must be one of/ },
  { what: 'a status in capitals', path: '/runs/jobs/artists?status=FAILED', status: 400, says: /status must be one of/ },
  { what: 'a parameter the overview does not take', path: '/runs?page=2', status: 400, says: /unknown query parameter .*page.*; this page takes none/ },
  { what: 'an unknown parameter on a job', path: '/runs/jobs/artists?sort=asc', status: 400, says: /unknown query parameter .*sort.*; this page takes page and status/ },
  { what: 'a status on a run page', path: `/runs/${RUN}?status=failed`, status: 400, says: /unknown query parameter .*status.*; this page takes page/ },
  { what: 'a page on a stored page', path: `/runs/${RUN}/pages/1?page=2`, status: 400, says: /this page takes none/ },
  { what: 'a job name with broken percent-encoding', path: '/runs/jobs/%E0%A4%A', status: 404, says: /There is no job named/ },
  { what: 'a run that is not a UUID', path: '/runs/not-a-run', status: 404, says: /There is no such page/ },
  { what: 'a run that does not exist', path: `/runs/${RUN}`, status: 404, says: /There is no run/ },
  { what: 'a path outside the history', path: '/admin', status: 404, says: /not found/ },
  { what: 'a POST', path: '/runs', method: 'POST', status: 404, says: /not found/ },
  { what: 'no credentials', path: '/runs', authorization: null, status: 401, says: /authentication required/ },
  { what: 'a bearer token', path: '/runs', authorization: 'Bearer pw', status: 401, says: /authentication required/ },
  { what: 'a wrong password', path: '/runs', authorization: basic('ops:wrong'), status: 401, says: /authentication required/ },
  { what: 'credentials that are not base64 of user:password', path: '/runs', authorization: 'Basic %%%', status: 401, says: /authentication required/ },
  { what: 'the right credentials under a lower-case scheme', path: '/runs?x=1', authorization: basic('ops:pw', 'basic'), status: 400, says: /unknown query parameter/ },
];
