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
 * The local part of `${first} ${last}` from those of its two parts: a run of characters that are not letters or
 * digits (the space among them) becomes one dot either way.
 */
export function joinedLocalParts(first: string, last: string): string {
  return first && last ? `${first}.${last}` : first || last;
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
