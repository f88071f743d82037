import { html } from '../html.js';
import { renderPage } from '../layout.js';

/** A page that says what was not found, or which query parameter was wrong. */
export function errorPage(title: string, message: string): string {
  return renderPage({ title, body: html`<h1>${title}</h1><p>${message}</p><p><a href="/runs">All jobs</a></p>` });
}
