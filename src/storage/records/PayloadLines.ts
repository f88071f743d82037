import { hash } from 'node:crypto';

/** Bytes a page's lines start in, before the first line tells how large the rest will likely be. */
const FIRST_CAPACITY = 64 * 1024;

/** Lines of a page are mostly alike: room for the expected ones is the first line's size times their count, plus a quarter. */
const EXPECTED_ROOM = 1.25;

/** The most room made ahead of need: a huge first record must not size the page (beyond it, growth doubles). */
const MOST_ROOM_AHEAD = 16 * 1024 * 1024;

/** The most UTF-8 bytes a UTF-16 code unit takes. */
const MOST_BYTES_PER_UNIT = 3;

/**
 * A page's JSON documents as Postgres takes them: UTF-8, one a line (JSON.stringify never writes
 * a raw newline), each hashed (sha1, base64) as it is written. Each document is encoded once, into
 * the bytes sent: hashing the text and then joining it cost a second encoding and a copy
 * (docs/benchmarks.md).
 */
export class PayloadLines {
  private bytes = Buffer.allocUnsafe(FIRST_CAPACITY);
  private length = 0;
  private lineCount = 0;

  /** `expectedLines`: how many documents the page will likely add, so that room for them is made once rather than doubled to. */
  constructor(private readonly expectedLines = 0) {}

  /** Adds a document as a line; returns its hash, the same as of its text. */
  add(document: string): string {
    const start = this.lineCount === 0 ? 0 : this.length + 1;
    // Only a line that may not fit is measured exactly: most never come near the end.
    if (this.bytes.length - start < document.length * MOST_BYTES_PER_UNIT) this.makeRoom(start + Buffer.byteLength(document));
    if (this.lineCount > 0) this.bytes[this.length] = 0x0a;
    const end = start + this.bytes.write(document, start);
    this.length = end;
    this.lineCount += 1;
    if (this.lineCount === 1 && this.expectedLines > 1) this.makeRoom(Math.min(Math.ceil((end + 1) * this.expectedLines * EXPECTED_ROOM), MOST_ROOM_AHEAD));
    return hash('sha1', this.bytes.subarray(start, end), 'base64');
  }

  /** The lines added, newline-separated; null when there are none. */
  finish(): Buffer | null {
    return this.lineCount === 0 ? null : this.bytes.subarray(0, this.length);
  }

  private makeRoom(needed: number): void {
    if (needed <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}
