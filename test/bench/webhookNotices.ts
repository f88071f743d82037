import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

/** What the bench reads of a completion notice the simulator's receiver got. */
export interface ReceivedNotice {
  runId: string;
  type: string;
  pages: number;
  records: { new: number; updated: number; unchanged: number };
  receivedAtMs: number;
}

interface LoggedRequest {
  seq: number;
  body: string;
  receivedAt: string;
}

interface NoticeBody {
  type: string;
  data: { runId: string; pages: number; records: ReceivedNotice['records'] };
}

/** The notices the receiver recorded for one webhook UUID after its `after`-th request, and the last one's number. */
export async function receivedNotices(webhookBaseUrl: string, uuid: string, after = 0): Promise<{ notices: ReceivedNotice[]; last: number }> {
  const response = await request(`${webhookBaseUrl}/${uuid}/requests?after=${after}`);
  const body = (await response.body.json()) as { data: { requests: LoggedRequest[] } };
  const notices = body.data.requests.map((logged) => {
    const notice = JSON.parse(logged.body) as NoticeBody;
    return { runId: notice.data.runId, type: notice.type, pages: notice.data.pages, records: notice.data.records, receivedAtMs: Date.parse(logged.receivedAt) };
  });
  return { notices, last: body.data.requests.at(-1)?.seq ?? after };
}

/**
 * Polls the receiver until a notice of every run has arrived, reading only what is new each time
 * (so polling costs the measured machine next to nothing); the arrival times are the receiver's
 * own, so the poll interval does not blur them.
 */
export async function waitForNotices(webhookBaseUrl: string, uuid: string, runIds: readonly string[], timeoutMs: number, pollMs: number): Promise<ReceivedNotice[]> {
  const wanted = new Set(runIds);
  const byRun = new Map<string, ReceivedNotice>();
  const deadline = Date.now() + timeoutMs;
  let after = 0;
  for (;;) {
    const polled = await receivedNotices(webhookBaseUrl, uuid, after);
    after = polled.last;
    for (const notice of polled.notices) if (wanted.has(notice.runId) && !byRun.has(notice.runId)) byRun.set(notice.runId, notice);
    if (byRun.size === wanted.size) return [...byRun.values()];
    if (Date.now() > deadline) throw new Error(`${byRun.size} of ${wanted.size} notices arrived within ${timeoutMs} ms`);
    await sleep(pollMs);
  }
}
