/*
 * Upstream answers that echo the configured key back, one a row: an encoding of the key and the
 * place it comes back in. echoedSecrets.integration.test.ts serves each from a local upstream and reads it
 * with a SourceClient: the key must come out in no form, with `***` where it was.
 */
import { unicodeEscaped } from '../support/secretEncodings.js';

export const ECHOED_KEY = 'k-echo-7f3b2a91c4d8e605';

/** Where an upstream may put the key: the answer the row's upstream gives with the key encoded as `echo`. */
export interface Place {
  name: string;
  answer: (echo: string) => { status: number; body: string; location?: string };
}

/** A form the key may come back in. */
interface Encoding {
  name: string;
  echo: string;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const everyByte = (text: string) => hex(text).replace(/../g, '%$&');

const encodings: Encoding[] = [
  { name: 'the key as given', echo: ECHOED_KEY },
  { name: 'base64 of "Bearer <key>" (the key at byte offset 1)', echo: base64(`Bearer ${ECHOED_KEY}`) },
  { name: 'base64 of " Bearer <key>" (offset 2)', echo: base64(` Bearer ${ECHOED_KEY}`) },
  { name: 'base64 of "  Bearer <key>" (offset 0)', echo: base64(`  Bearer ${ECHOED_KEY}`) },
  { name: 'base64 of a longer text with the key at offset 0', echo: base64(`${ECHOED_KEY} is not a key of this account`) },
  { name: 'base64 of a longer text with the key at offset 1', echo: base64(`{"token":"${ECHOED_KEY}","valid":false}`) },
  { name: 'base64 of a longer text with the key at offset 2', echo: base64(`the key ${ECHOED_KEY} was revoked`) },
  { name: 'base64url without padding', echo: Buffer.from(`token=${ECHOED_KEY}&`).toString('base64url') },
  { name: 'hex in lower case', echo: hex(ECHOED_KEY) },
  { name: 'hex in upper case', echo: hex(ECHOED_KEY).toUpperCase() },
  { name: 'every byte %-encoded in upper case', echo: everyByte(ECHOED_KEY).toUpperCase() },
  { name: 'every byte %-encoded in lower case', echo: everyByte(ECHOED_KEY) },
  { name: 'JSON \\u escapes of every character', echo: unicodeEscaped(ECHOED_KEY) },
];

const envelope = (status: string, data: unknown, message: string) => `{"status":${JSON.stringify(status)},"data":${JSON.stringify(data)},"message":"${message}"}`;

export const places: Place[] = [
  { name: 'the message of a 403 error body', answer: (echo) => ({ status: 403, body: envelope('error', null, `invalid key ${echo}`) }) },
  { name: 'a 500 error page', answer: (echo) => ({ status: 500, body: `<html><body>upstream failed for key=${echo}</body></html>` }) },
  { name: "a redirect's Location", answer: (echo) => ({ status: 302, body: '', location: `/login?key=${echo}` }) },
  { name: 'a record of a successful page', answer: (echo) => ({ status: 200, body: `{"status":"success","data":{"items":[{"id":"1","note":"sent with ${echo}"}]},"message":""}` }) },
];

export interface EchoedSecretRow {
  what: string;
  place: Place;
  echo: string;
}

export const echoedSecretRows: EchoedSecretRow[] = places.flatMap((place) => encodings.map((encoding) => ({ what: `${encoding.name} in ${place.name}`, place, echo: encoding.echo })));
