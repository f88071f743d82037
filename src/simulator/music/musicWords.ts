/** Word lists the catalogue names are made from. The name lists each hold 64 words (names are indexed by mixed radix). */

export const ADJECTIVES = [
  'Velvet', 'Electric', 'Silent', 'Golden', 'Broken', 'Crimson', 'Hollow', 'Neon', 'Wild', 'Paper',
  'Lunar', 'Rusty', 'Frozen', 'Burning', 'Gentle', 'Savage', 'Midnight', 'Hidden', 'Crystal', 'Wandering',
  'Painted', 'Endless', 'Bitter', 'Sweet', 'Distant', 'Sacred', 'Restless', 'Quiet', 'Scarlet', 'Faded',
  'Radiant', 'Lonely', 'Iron', 'Silver', 'Stormy', 'Northern', 'Southern', 'Tender', 'Atomic', 'Cosmic',
  'Fragile', 'Hazy', 'Honest', 'Jagged', 'Liquid', 'Magnetic', 'Mellow', 'Mystic', 'Obsidian', 'Pale',
  'Plastic', 'Purple', 'Rebel', 'Roaming', 'Shining', 'Smoky', 'Solar', 'Static', 'Sunken', 'Twisted',
  'Violet', 'Wired', 'Young', 'Ancient',
] as const;

export const NOUNS = [
  'Owl', 'Harbor', 'Echo', 'River', 'Comet', 'Lantern', 'Wolf', 'Mirror', 'Garden', 'Signal',
  'Canyon', 'Falcon', 'Ghost', 'Horizon', 'Island', 'Jewel', 'Kite', 'Machine', 'Meadow', 'Monarch',
  'Ocean', 'Panther', 'Pilot', 'Prism', 'Raven', 'Rocket', 'Saint', 'Shadow', 'Siren', 'Sparrow',
  'Star', 'Stone', 'Tiger', 'Tower', 'Valley', 'Voyager', 'Wave', 'Window', 'Dream', 'Engine',
  'Feather', 'Flame', 'Forest', 'Giant', 'Heart', 'Hunter', 'Lion', 'Mountain', 'Orchid', 'Planet',
  'Queen', 'Ribbon', 'Rider', 'Season', 'Spider', 'Stranger', 'Thunder', 'Traveler', 'Tulip', 'Dancer',
  'Violin', 'Whisper', 'Wing', 'Anchor',
] as const;

export const FIRST_NAMES = [
  'Mara', 'Ivy', 'Jonas', 'Lena', 'Theo', 'Nora', 'Felix', 'Ada', 'Oscar', 'Ruby',
  'Hugo', 'Iris', 'Leo', 'Mila', 'Otto', 'Zoe', 'Arlo', 'Clara', 'Emil', 'Freya',
  'Gus', 'Hazel', 'Isak', 'June', 'Kai', 'Luna', 'Milo', 'Nina', 'Pablo', 'Rosa',
  'Silas', 'Tess', 'Ulla', 'Vera', 'Wes', 'Yara', 'Abel', 'Bea', 'Cyrus', 'Dora',
  'Elio', 'Fern', 'Gwen', 'Hal', 'Ines', 'Jude', 'Kira', 'Lars', 'Maya', 'Nico',
  'Olga', 'Pia', 'Quinn', 'Rafe', 'Sana', 'Tomas', 'Uma', 'Vito', 'Wren', 'Xavi',
  'Yuki', 'Zane', 'Alba', 'Bruno',
] as const;

export const LAST_NAMES = [
  'Lindqvist', 'Moreau', 'Okafor', 'Castillo', 'Novak', 'Haddad', 'Fischer', 'Tanaka', 'Rossi', 'Kowalski',
  'Andersen', 'Bianchi', 'Costa', 'Dubois', 'Eriksen', 'Ferreira', 'Garcia', 'Hoffmann', 'Ivanova', 'Jensen',
  'Kim', 'Larsen', 'Mendes', 'Nakamura', 'Olsen', 'Petrov', 'Quinn', 'Reyes', 'Sato', 'Torres',
  'Ueda', 'Varga', 'Weber', 'Young', 'Zimmer', 'Abbott', 'Baker', 'Carter', 'Dalton', 'Ellis',
  'Fox', 'Grant', 'Hayes', 'Irwin', 'Jones', 'Keller', 'Lowe', 'Marsh', 'Nash', 'Ortiz',
  'Price', 'Rhodes', 'Stone', 'Turner', 'Vance', 'Wolfe', 'Yates', 'Adler', 'Brandt', 'Cole',
  'Drake', 'Ernst', 'Frost', 'Greer',
] as const;

export const GENRES = [
  'rock', 'pop', 'indie', 'electronic', 'hip-hop', 'jazz', 'folk', 'metal', 'punk', 'soul',
  'blues', 'classical', 'ambient', 'techno', 'house', 'reggae', 'country', 'r&b', 'funk', 'disco',
  'shoegaze', 'post-rock', 'synthpop', 'trip-hop', 'dream pop', 'grunge', 'emo', 'ska', 'hardcore', 'industrial',
  'new wave', 'psychedelic', 'garage rock', 'lo-fi', 'drum and bass', 'dubstep', 'trance', 'bossa nova', 'latin', 'afrobeat',
  'k-pop', 'j-pop', 'singer-songwriter', 'alternative', 'experimental', 'instrumental', 'acoustic', 'chillout', 'downtempo', 'gospel',
] as const;

export const LYRIC_WORDS = [
  'night', 'light', 'run', 'home', 'fire', 'rain', 'heart', 'road', 'sky', 'dream',
  'hold', 'fall', 'burn', 'dance', 'wait', 'call', 'alone', 'together', 'forever', 'tonight',
  'city', 'ocean', 'gold', 'shadow', 'breathe', 'wander', 'remember', 'forget', 'stay', 'leave',
] as const;

export const LYRIC_LANGUAGES = ['en', 'en', 'en', 'en', 'es', 'de', 'fr', 'pt', 'sv', 'ja'] as const;
