import type { Prng } from './prng.js';

/** Lower-case hex of every 16-bit value: four digits per table lookup keeps hash building cheap. */
const HEX4: readonly string[] = Array.from({ length: 65536 }, (_, i) => i.toString(16).padStart(4, '0'));
const HEX2: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Eight hex digits of a uint32. */
export function hex8(uint32: number): string {
  return HEX4[uint32 >>> 16]! + HEX4[uint32 & 0xffff]!;
}

/** Six hex digits of a 24-bit value. */
export function hex6(uint24: number): string {
  return HEX2[(uint24 >>> 16) & 0xff]! + HEX4[uint24 & 0xffff]!;
}

/** `chars` hex digits (a multiple of 4) drawn from a generator. */
export function hexFrom(prng: Prng, chars: number): string {
  let out = '';
  let left = chars;
  for (; left >= 8; left -= 8) out += hex8(prng.nextUint32());
  if (left === 4) out += HEX4[prng.nextUint32() & 0xffff]!;
  return out;
}

/** A UUID in RFC 4122 version 4 shape, made from four uint32 words. */
export function uuidFromWords(a: number, b: number, c: number, d: number): string {
  const versioned = (b & 0x0fff) | 0x4000;
  const variant = ((c >>> 16) & 0x3fff) | 0x8000;
  return `${hex8(a)}-${HEX4[b >>> 16]!}-${HEX4[versioned]!}-${HEX4[variant]!}-${HEX4[c & 0xffff]!}${hex8(d)}`;
}
