import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import type { Logger } from '../../observability/logger.js';
import { checkOut, type CheckedOutClient } from '../database/checkOut.js';
import { holdInProcessTick } from './statements/holdInProcessTick.js';
import { releaseInProcessTick } from './statements/releaseInProcessTick.js';
import { tryInProcessTick } from './statements/tryInProcessTick.js';

export interface InProcessTickLockOptions {
  /** Told when the lock is lost with its connection, and when it is held again. */
  log: Pick<Logger, 'warn' | 'info'>;
  /** Between tries to take a lost lock again (default RETAKE_DELAY_MS). */
  retakeDelayMs?: number;
  /** How often the lock's connection is checked by a statement (default CHECK_EVERY_MS). */
  checkEveryMs?: number;
  /** A check, try or unlock unanswered for this long finds the connection dead (default ANSWER_WITHIN_MS). */
  answerWithinMs?: number;
}

const RETAKE_DELAY_MS = 1_000;
const CHECK_EVERY_MS = 15_000;
/** Longer than any answer of a live connection: one silent for this long went away without a reset (a network gone, a failover). */
const ANSWER_WITHIN_MS = 5_000;

/**
 * The lock that says this process runs a tick's runs itself (see JobTicks.holdInProcess): a session
 * lock on a connection of its own. The lock goes with its connection, so when that is lost
 * (Postgres restarting, the connection killed, or silent to a check every checkEveryMs) it
 * tries to take it again on a new one, at once and then every retakeDelayMs until it has it or
 * is released: a reconciler takes the live process for a gone one only while Postgres is out of
 * its reach too. A retake never waits for the lock (another session may still hold it), and a
 * release never waits for a retake.
 */
export class InProcessTickLock {
  private connection: CheckedOutClient | undefined;
  private retaking: Promise<void> | undefined;
  /** When the lock was last taken: one lost soon after waits a retakeDelayMs before its first try. */
  private heldSince = 0;
  private checks: NodeJS.Timeout | undefined;
  private readonly released = new AbortController();

  constructor(
    private readonly pool: Pick<pg.Pool, 'connect'>,
    private readonly tickId: string,
    private readonly options: InProcessTickLockOptions,
  ) {}

  private get retakeDelayMs(): number {
    return this.options.retakeDelayMs ?? RETAKE_DELAY_MS;
  }

  /** Takes the lock; throws if it cannot be taken now. */
  async take(): Promise<void> {
    this.held((await this.lock('wait'))!);
    this.checks = setInterval(() => void this.check(), this.options.checkEveryMs ?? CHECK_EVERY_MS).unref();
  }

  /** Gives the lock up; a retake under way gives up what it takes. */
  async release(): Promise<void> {
    this.released.abort();
    clearInterval(this.checks);
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await this.unlock(connection);
  }

  /** The lock on a connection of its own; `try`: undefined if another session holds it. */
  private async lock(how: 'wait' | 'try'): Promise<CheckedOutClient | undefined> {
    const connection: CheckedOutClient = await checkOut(this.pool, (error) => this.lost(connection, error));
    try {
      const { rows } =
        how === 'wait'
          ? await connection.client.query(holdInProcessTick.with({ tickId: this.tickId }))
          : await this.answered(connection.client.query<{ taken: boolean }>(tryInProcessTick.with({ tickId: this.tickId })));
      if (how === 'wait' || (rows[0] as { taken?: boolean } | undefined)?.taken) return connection;
      connection.release();
      return undefined;
    } catch (error) {
      connection.release(error as Error);
      throw error;
    }
  }

  private async unlock(connection: CheckedOutClient): Promise<void> {
    try {
      await this.answered(connection.client.query(releaseInProcessTick.with({ tickId: this.tickId })));
      connection.release();
    } catch (error) {
      // Released as broken, the connection is closed, and the lock goes with its session.
      connection.release(error as Error);
    }
  }

  /** The statement's result, or an error once it is unanswered for answerWithinMs (its connection is then given up as broken). */
  private async answered<T>(statement: Promise<T>): Promise<T> {
    const withinMs = this.options.answerWithinMs ?? ANSWER_WITHIN_MS;
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Postgres did not answer within ${withinMs} ms`)), withinMs);
    });
    try {
      return await Promise.race([statement, silence]);
    } finally {
      clearTimeout(timer);
    }
  }

  private held(connection: CheckedOutClient): void {
    this.connection = connection;
    this.heldSince = performance.now();
  }

  /** A statement on the lock's connection: one unanswered finds a connection that died without a word. */
  private async check(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    await this.answered(connection.client.query('select 1')).catch((error: unknown) => this.lost(connection, error as Error));
  }

  private lost(connection: CheckedOutClient, error: Error): void {
    connection.release(error);
    if (this.connection !== connection) return;
    this.connection = undefined;
    if (this.released.signal.aborted) return;
    this.options.log.warn({ tickId: this.tickId, err: { message: error.message } }, 'lost the lock that marks this tick as run here; taking it again');
    this.retakeIfLost();
  }

  private retakeIfLost(): void {
    // Only a lock held is lost (see lost), so only a lock taken is taken again.
    if (this.released.signal.aborted || this.connection || this.retaking) return;
    this.retaking = this.retake()
      // It handles its own failures; nothing else can reject it.
      .catch(() => undefined)
      .finally(() => {
        this.retaking = undefined;
        // Lost again as the retake ended: go on trying.
        this.retakeIfLost();
      });
  }

  private async retake(): Promise<void> {
    // A lock lost soon after it was taken (connections dying as they are made) is not tried again at once: no tight loop.
    let wait = performance.now() - this.heldSince < this.retakeDelayMs;
    while (!this.released.signal.aborted && !this.connection) {
      if (wait) await delay(this.retakeDelayMs, undefined, { signal: this.released.signal }).catch(() => undefined);
      wait = true;
      if (this.released.signal.aborted) return;
      // Postgres still out of reach, or the old session not yet gone: the next try comes after the delay.
      const connection = await this.lock('try').catch(() => undefined);
      if (connection && this.released.signal.aborted) return this.unlock(connection);
      if (connection) this.held(connection);
    }
    if (this.connection) this.options.log.info({ tickId: this.tickId }, 'holding the lock that marks this tick as run here again');
  }
}
