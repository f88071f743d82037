import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import type { Logger } from '../observability/logger.js';
import { checkOut, type CheckedOutClient } from './checkOut.js';
import { holdInProcessTick, releaseInProcessTick, tryInProcessTick } from './statements/inProcessTickLock.js';

export interface InProcessTickHoldOptions {
  /** Told when the mark is lost with its connection, and when it is held again. */
  log: Pick<Logger, 'warn' | 'info'>;
  /** Between tries to take a lost mark again (default RETAKE_DELAY_MS). */
  retakeDelayMs?: number;
}

const RETAKE_DELAY_MS = 1_000;

/**
 * The mark that this process runs a tick's runs itself (see JobTicks.holdInProcess): a session
 * lock on a connection of its own. The lock goes with its connection, so when that is lost
 * (Postgres restarting, the connection killed) the hold tries at once to take it again on a new
 * one, then every retakeDelayMs until it has it or is released: a reconciler takes the live
 * process for a gone one only while Postgres is out of its reach too. A retake never waits for
 * the lock (another session may still hold it), so a release never waits on one.
 */
export class InProcessTickHold {
  private connection: CheckedOutClient | undefined;
  private retaking: Promise<void> | undefined;
  /** Set once the mark is first taken: only a mark taken is taken again. */
  private taken = false;
  private readonly released = new AbortController();

  constructor(
    private readonly pool: Pick<pg.Pool, 'connect'>,
    private readonly tickId: string,
    private readonly options: InProcessTickHoldOptions,
  ) {}

  /** Takes the mark; throws if it cannot be taken now. */
  async take(): Promise<void> {
    this.connection = await this.lock('wait');
    this.taken = true;
  }

  /** Gives the mark up, after a retake under way (at most one try); its connection goes back to the pool. */
  async release(): Promise<void> {
    this.released.abort();
    await this.retaking;
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    try {
      await connection.client.query(releaseInProcessTick.with({ tickId: this.tickId }));
      connection.release();
    } catch (error) {
      // Released as broken, the connection is closed, and the lock goes with its session.
      connection.release(error as Error);
    }
  }

  /** The mark on a connection of its own; `try`: undefined if another session holds it. */
  private async lock(how: 'wait' | 'try'): Promise<CheckedOutClient | undefined> {
    const connection: CheckedOutClient = await checkOut(this.pool, (error) => this.lost(connection, error));
    try {
      const { rows } = await connection.client.query<{ taken?: boolean }>((how === 'wait' ? holdInProcessTick : tryInProcessTick).with({ tickId: this.tickId }));
      if (how === 'wait' || rows[0]?.taken) return connection;
      connection.release();
      return undefined;
    } catch (error) {
      connection.release(error as Error);
      throw error;
    }
  }

  private lost(connection: CheckedOutClient, error: Error): void {
    connection.release();
    if (this.connection !== connection) return;
    this.connection = undefined;
    if (this.released.signal.aborted) return;
    this.options.log.warn({ tickId: this.tickId, err: { message: error.message } }, 'lost the lock that marks this tick as run here; taking it again');
    this.retakeIfLost();
  }

  private retakeIfLost(): void {
    if (!this.taken || this.released.signal.aborted || this.connection || this.retaking) return;
    this.retaking = this.retake().finally(() => {
      this.retaking = undefined;
      // Lost again as the retake ended: go on trying.
      this.retakeIfLost();
    });
  }

  private async retake(): Promise<void> {
    for (let tries = 0; !this.released.signal.aborted && !this.connection; tries++) {
      if (tries > 0) await delay(this.options.retakeDelayMs ?? RETAKE_DELAY_MS, undefined, { signal: this.released.signal }).catch(() => undefined);
      if (this.released.signal.aborted) return;
      // Postgres still out of reach, or the old session not yet gone: the next try comes after the delay.
      this.connection = await this.lock('try').catch(() => undefined);
    }
    if (this.connection) this.options.log.info({ tickId: this.tickId }, 'holding the lock that marks this tick as run here again');
  }
}
