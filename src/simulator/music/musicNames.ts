import { ADJECTIVES, FIRST_NAMES, GENRES, LAST_NAMES, NOUNS } from './musicWords.js';
import { domainOf, hashOf } from '../server/prng.js';

/** A name shape: two word slots filled from two lists. */
interface NameTemplate {
  slots: readonly [readonly string[], readonly string[]];
  render: (first: string, second: string) => string;
}

const WORDS_PER_SLOT = 64;
/** Coprime with every family's combination count (a multiple of 4096 times the template count), so index -> combination is a bijection. */
const SHUFFLE_MULTIPLIER = 1_000_003;

const ARTIST_TEMPLATES: readonly NameTemplate[] = [
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `The ${a} ${n}s` },
  { slots: [FIRST_NAMES, LAST_NAMES], render: (f, l) => `${f} ${l}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `${a} ${n}` },
  { slots: [FIRST_NAMES, NOUNS], render: (f, n) => `${f} & the ${n}s` },
  { slots: [NOUNS, NOUNS], render: (n1, n2) => `${n1}${n2.toLowerCase()}` },
];

const ALBUM_TEMPLATES: readonly NameTemplate[] = [
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `${a} ${n}` },
  { slots: [NOUNS, NOUNS], render: (n1, n2) => `${n1} & ${n2}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `Songs for a ${a} ${n}` },
  { slots: [NOUNS, ADJECTIVES], render: (n, a) => `The ${n} Is ${a}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `${a} ${n}s` },
];

const TRACK_TEMPLATES: readonly NameTemplate[] = [
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `${a} ${n}` },
  { slots: [NOUNS, NOUNS], render: (n1, n2) => `${n1} of the ${n2}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `My ${a} ${n}` },
  { slots: [NOUNS, ADJECTIVES], render: (n, a) => `${n} (${a})` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `${a} ${n}s` },
  { slots: [FIRST_NAMES, NOUNS], render: (f, n) => `${f}'s ${n}` },
  { slots: [NOUNS, NOUNS], render: (n1, n2) => `From ${n1} to ${n2}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `Where the ${a} ${n}s Go` },
  { slots: [ADJECTIVES, ADJECTIVES], render: (a1, a2) => `${a1} and ${a2}` },
  { slots: [NOUNS, ADJECTIVES], render: (n, a) => `${n}, ${a}` },
  { slots: [FIRST_NAMES, ADJECTIVES], render: (f, a) => `${a} ${f}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `Under a ${a} ${n}` },
  { slots: [NOUNS, NOUNS], render: (n1, n2) => `${n1} in the ${n2}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `${a} ${n} Blues` },
  { slots: [FIRST_NAMES, FIRST_NAMES], render: (f1, f2) => `${f1} & ${f2}` },
  { slots: [ADJECTIVES, NOUNS], render: (a, n) => `Last ${a} ${n}` },
];

const ARTIST_SUFFIXES = ['', ' Collective', ' Trio', ' Orchestra', ' Project'] as const;
const ALBUM_SUFFIXES = ['', ' (Deluxe)', ' (Live)', ' (Remastered)'] as const;
const TRACK_SUFFIXES = ['', ' (Reprise)', ' (Live)', ' (Demo)', ' (Remix)', ' (Acoustic)'] as const;

/**
 * Names of one kind (artists, albums, tracks) as a pure function of (seed, index). Index i maps,
 * through a seed-shifted bijection, to one (template, word, word) combination, so names are unique
 * until the combinations run out; past that a suffix (or a number) tells rounds apart.
 */
export class NameFamily {
  private readonly combinations: number;
  private readonly shift: number;

  constructor(
    seed: number,
    kind: string,
    private readonly templates: readonly NameTemplate[],
    private readonly suffixes: readonly string[],
  ) {
    this.combinations = templates.length * WORDS_PER_SLOT * WORDS_PER_SLOT;
    this.shift = hashOf(seed, domainOf(`names.${kind}`), 0) % this.combinations;
  }

  name(index: number): string {
    const combination = ((index % this.combinations) * SHUFFLE_MULTIPLIER + this.shift) % this.combinations;
    const template = this.templates[combination % this.templates.length]!;
    const words = Math.floor(combination / this.templates.length);
    const name = template.render(template.slots[0][words % WORDS_PER_SLOT]!, template.slots[1][Math.floor(words / WORDS_PER_SLOT)]!);
    const round = Math.floor(index / this.combinations);
    return round === 0 ? name : name + (this.suffixes[round] ?? ` ${round + 1}`);
  }
}

export function artistNames(seed: number): NameFamily {
  return new NameFamily(seed, 'artist', ARTIST_TEMPLATES, ARTIST_SUFFIXES);
}

export function albumNames(seed: number): NameFamily {
  return new NameFamily(seed, 'album', ALBUM_TEMPLATES, ALBUM_SUFFIXES);
}

export function trackNames(seed: number): NameFamily {
  return new NameFamily(seed, 'track', TRACK_TEMPLATES, TRACK_SUFFIXES);
}

/** Genre names; past the list they repeat with a number ("rock 2"). */
export function tagName(index: number): string {
  const genre = GENRES[index % GENRES.length]!;
  const round = Math.floor(index / GENRES.length);
  return round === 0 ? genre : `${genre} ${round + 1}`;
}

/** User names end in the user's index, so a name maps back to its user without a lookup table. */
export function userName(seed: number, index: number): string {
  const h = hashOf(seed, domainOf('names.user'), index);
  return `${FIRST_NAMES[h % WORDS_PER_SLOT]!.toLowerCase()}${NOUNS[(h >>> 8) % WORDS_PER_SLOT]!.toLowerCase()}${index}`;
}
