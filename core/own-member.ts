/**
 * `record[key]` when `key` is the record's own member, else undefined. Names that come from requests or
 * packs ("constructor", "toString") must never find the members every object inherits.
 */
export function ownMember<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
