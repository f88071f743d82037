import { html } from '../html.js';
import { renderScreen } from '../layout.js';

/** A screen that says what was not found, or which query parameter was wrong. */
export function errorScreen(title: string, message: string): string {
  return renderScreen({ title, body: html`<h1>${title}</h1><p>${message}</p><p><a href="/runs">All jobs</a></p>` });
}
