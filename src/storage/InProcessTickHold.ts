import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { checkOut, type CheckedOutClient } from './checkOut.js';
import { holdInProcessTick, releaseInProcessTick } from './statements/inProcessTickLock.js';

/** How long after its connection is lost the hold tries to take the mark again, and between tries. */
const RETAKE_DELAY_MS = 1_000;

/**
 * The mark that this process runs a tick's runs itself (see JobTicks.holdInProcess): a session
 * lock on a connection of its own. The lock goes with its connection, so when that is lost
 * (Postgres restarting, the connection killed) the hold takes it again on a new one, every
 * RETAKE_DELAY_MS until it has it or is released: a reconciler takes the live process for a gone
 * one only while Postgres is out of its reach too.
 */
export class InProcessTickHold {
  private connection: CheckedOutClient | undefined;
  private retaking: Promise<void> | undefined;
  /** Set once the mark is first taken: only a mark taken is taken again. */
  private taken = false;
  private released = false;

  constructor(
    private readonly pool: Pick<pg.Pool, 'connect'>,
    private readonly tickId: string,
    private readonly retakeDelayMs = RETAKE_DELAY_MS,
  ) {}

  /** Takes the mark; throws if it cannot be taken now. */
  async take(): Promise<void> {
    this.connection = await this.lock();
    this.taken = true;
  }

  /** Gives the mark up, after any retake under way; its connection goes back to the pool. */
  async release(): Promise<void> {
    this.released = true;
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

  private async lock(): Promise<CheckedOutClient> {
    const connection: CheckedOutClient = await checkOut(this.pool, () => this.lost(connection));
    try {
      await connection.client.query(holdInProcessTick.with({ tickId: this.tickId }));
      return connection;
    } catch (error) {
      connection.release(error as Error);
      throw error;
    }
  }

  private lost(connection: CheckedOutClient): void {
    connection.release();
    if (this.connection === connection) this.connection = undefined;
    this.retakeIfLost();
  }

  private retakeIfLost(): void {
    if (!this.taken || this.released || this.connection || this.retaking) return;
    this.retaking = this.retake().finally(() => {
      this.retaking = undefined;
      // Lost again as the retake ended: try once more.
      this.retakeIfLost();
    });
  }

  private async retake(): Promise<void> {
    while (!this.released && !this.connection) {
      await delay(this.retakeDelayMs);
      if (this.released) return;
      // Still out of reach: the next try comes after the delay.
      this.connection = await this.lock().catch(() => undefined);
    }
  }
}
