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
  body: string;
  receivedAt: string;
}

interface NoticeBody {
  type: string;
  data: { runId: string; pages: number; records: ReceivedNotice['records'] };
}

/** The notices the receiver recorded for one webhook UUID. */
export async function receivedNotices(webhookBaseUrl: string, uuid: string): Promise<ReceivedNotice[]> {
  const response = await request(`${webhookBaseUrl}/${uuid}/requests`);
  const body = (await response.body.json()) as { data: { requests: LoggedRequest[] } };
  return body.data.requests.map((logged) => {
    const notice = JSON.parse(logged.body) as NoticeBody;
    return { runId: notice.data.runId, type: notice.type, pages: notice.data.pages, records: notice.data.records, receivedAtMs: Date.parse(logged.receivedAt) };
  });
}

/**
 * Polls the receiver until a notice of every run has arrived; the arrival times are the
 * receiver's own, so the poll interval does not blur them.
 */
export async function waitForNotices(webhookBaseUrl: string, uuid: string, runIds: readonly string[], timeoutMs: number, pollMs: number): Promise<ReceivedNotice[]> {
  const wanted = new Set(runIds);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const notices = (await receivedNotices(webhookBaseUrl, uuid)).filter((notice) => wanted.has(notice.runId));
    const byRun = new Map(notices.map((notice) => [notice.runId, notice]));
    if (byRun.size === wanted.size) return [...byRun.values()];
    if (Date.now() > deadline) throw new Error(`${byRun.size} of ${wanted.size} notices arrived within ${timeoutMs} ms`);
    await sleep(pollMs);
  }
}
