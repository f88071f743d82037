/** What a source's credentials add to each request. */
export interface RequestAuth {
  headers: Readonly<Record<string, string>>;
  /** Query parameters carrying a secret: sent, but masked wherever a request URL is shown or stored. */
  queryParams: Readonly<Record<string, string>>;
}
