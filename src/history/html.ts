/** Markup made by `html` (or trusted by `markup`): put into another `html` template as it is. */
export class Markup {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** Markup written by this code, never by an upstream: the one way around escaping. */
export function markup(text: string): Markup {
  return new Markup(text);
}

/** What a template may hold: text, numbers, markup, lists of them, and nothing. */
export type Interpolation = string | number | Markup | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template of markup whose every interpolated value is escaped, unless it is Markup itself:
 * text from upstreams (error messages, request URLs, values) can never become markup or script.
 * Lists are joined; null, undefined and false write nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Markup {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += render(values[i]) + strings[i + 1]!;
  return new Markup(text);
}
