/** The history pages have no script and load nothing from elsewhere: the browser is told to allow nothing more. */
export const HISTORY_SCREENS_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * bull-board's UI loads its scripts, styles, locales, icons and a highlighting worker from its
 * own static path, sets inline styles, and sets `<base>` to its path; its web font from Google is
 * refused, so that opening the dashboard tells no one else.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'";

/** What every page of the ops port answers with: its content policy, no type sniffing, and never framed (X-Frame-Options for browsers without frame-ancestors). */
export function securityHeaders(contentSecurityPolicy: string): Record<string, string> {
  return { 'content-security-policy': contentSecurityPolicy, 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };
}
