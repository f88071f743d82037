import { z } from 'zod';

/**
 * An http(s) URL without `user:pass@`: the client never sends credentials written there, so they
 * would be dropped in silence. `instead` says what to use; the message never quotes the URL.
 */
export const httpUrl = (instead: string) =>
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).refine((url) => {
    // Refinements run after a failed check too: a URL that does not parse is that check's to report.
    const { username, password } = URL.canParse(url) ? new URL(url) : { username: '', password: '' };
    return username === '' && password === '';
  }, `must not hold a user name or password (user:pass@): they would not be sent; ${instead}`);
