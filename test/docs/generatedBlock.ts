/** A block of a page that code writes, between two marker comments; the hand-written text around it is kept. */
export interface GeneratedBlock {
  begin: string;
  end: string;
  block: string;
  /** The page, for the error when its markers are missing. */
  name: string;
}

/** The page with the block between its markers (the markers included in `block`) made anew. */
export function replaceBlock(page: string, { begin, end, block, name }: GeneratedBlock): string {
  const from = page.indexOf(begin);
  const to = page.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${name} has no generated block (${begin} … ${end})`);
  return `${page.slice(0, from)}${block}${page.slice(to + end.length)}`;
}
