/**
 * The local part of an e-mail address made from a person's name: lower-case ASCII letters and digits, words
 * joined by dots, accents dropped (José → jose) and the Latin letters without a decomposition spelt out
 * (ß → ss, ø → o, ł → l). A name with nothing left (a name in another script) gives ''.
 */
export function localPartOf(name: string): string {
  return name
    .normalize('NFD')
    .toLowerCase()
    .replace(COMBINING_MARKS, '')
    .replace(LETTERS_WITHOUT_DECOMPOSITION, (letter) => SPELT_OUT[letter] ?? '')
    .replace(NOT_LOCAL, '.')
    .replace(EDGE_DOTS, '');
}

/**
 * The same, word by word through a cache: names are drawn from pools of a few thousand words, and the
 * normalisation and four replacements cost more than the rest of a row. Equal to `localPartOf` because a run of
 * characters that are not letters or digits (a space among them) becomes one dot either way.
 */
export function cachedLocalPartOf(name: string): string {
  let local = '';
  let start = 0;
  for (;;) {
    const space = name.indexOf(' ', start);
    const word = space < 0 ? name.slice(start) : name.slice(start, space);
    let part = words.get(word);
    if (part === undefined) {
      if (words.size >= WORD_CACHE_LIMIT) words.clear();
      words.set(word, (part = localPartOf(word)));
    }
    if (part) local = local ? `${local}.${part}` : part;
    if (space < 0) return local;
    start = space + 1;
  }
}

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const SPELT_OUT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const LETTERS_WITHOUT_DECOMPOSITION = /[ßæœøłđðþı]/g;
const NOT_LOCAL = /[^a-z0-9]+/g;
const EDGE_DOTS = /^\.+|\.+$/g;
const WORD_CACHE_LIMIT = 100_000;
const words = new Map<string, string>();
