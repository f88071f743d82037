import { getPath } from '../config/records/dotPath.js';
import { scalarText } from '../config/records/exactJson.js';
import { withoutNulChars } from '../storage/records/nulChars.js';
import { maxValue } from './runCheckpoint.js';

/** How a page's incremental values run, in the order read. */
export interface PageOrder {
  /** The page's first value (null: none has one). */
  first: string | null;
  /** Whether each value is ≥ those before it in the page. */
  ascending: boolean;
}

/** The items' values of an incremental field, in page order, as text a cursor can hold; items without one are passed over. */
function* incrementalValues(items: readonly unknown[], field: string): Generator<string> {
  for (const item of items) {
    const raw = scalarText(getPath(item, field));
    if (raw !== undefined) yield withoutNulChars(raw);
  }
}

/** The highest value of `field` among the items; null when none has one. */
export function highestValue(items: readonly unknown[], field: string): string | null {
  let highest: string | null = null;
  for (const value of incrementalValues(items, field)) highest = maxValue(highest, value);
  return highest;
}

export function pageOrder(items: readonly unknown[], field: string): PageOrder {
  let first: string | null = null;
  let highest: string | null = null;
  let ascending = true;
  for (const value of incrementalValues(items, field)) {
    first ??= value;
    ascending &&= isAtLeast(value, highest);
    highest = maxValue(highest, value);
  }
  return { first, ascending };
}

/** Whether a page read after values up to `highest` keeps every value ≥ those before it. */
export function keepsAscending(highest: string | null, order: PageOrder): boolean {
  return order.ascending && (order.first === null || isAtLeast(order.first, highest));
}

/** `value` ≥ `than`, compared as maxValue compares (numerically for integers); anything is ≥ none. */
function isAtLeast(value: string, than: string | null): boolean {
  return than === null || maxValue(than, value) === value;
}
