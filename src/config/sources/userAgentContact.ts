import { z } from 'zod';

/** The longest contact taken: a URL or an address, not a paragraph in every request. */
const USER_AGENT_CONTACT_MAX = 200;

const SENT = 'it is sent in the User-Agent header';

/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROL = /[\x00-\x1f\x7f]/;
const NOT_ASCII = /[^\x00-\x7f]/;
/* eslint-enable no-control-regex */

/**
 * A source's `userAgent`: a contact (a URL or an e-mail address) sent as `(+<contact>)` after
 * `feedsync/<version>`. Header text is printable ASCII: a line break could split the header, and
 * a parenthesis or backslash would end or escape the comment it sits in.
 */
export const userAgentContact = z
  .string()
  .min(1, 'must not be empty: give a URL or an e-mail address to reach you at')
  .max(USER_AGENT_CONTACT_MAX, `must be at most ${USER_AGENT_CONTACT_MAX} characters`)
  .refine((value) => !CONTROL.test(value), `must not contain a control character (a line break, tab or NUL): ${SENT}`)
  .refine((value) => !NOT_ASCII.test(value), `must be printable ASCII (percent-encode a URL's other characters, or use punycode): ${SENT}`)
  .refine((value) => !/[()\\]/.test(value), `must not contain "(", ")" or "\\": ${SENT}, within parentheses`)
  .refine((value) => !/^ | $/.test(value), 'must not start or end with a space');
