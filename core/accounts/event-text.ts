/** The longest reason or message an account event holds (its schema's `maxLength`). */
export const TEXT_MAX_LENGTH = 500;

/** The schema of such a text. */
export const eventText = { type: 'string', maxLength: TEXT_MAX_LENGTH } as const;

/**
 * A reason as an event holds it: often an error's or a provider's message, of any length, and a refund,
 * a release or a recorded decline must never fail on it (the credits would stay taken, the decline go
 * unrecorded). Cut at a character, never inside one.
 */
export function fitted(reason: string): string {
  const characters = Array.from(reason);
  return characters.length <= TEXT_MAX_LENGTH ? reason : `${characters.slice(0, TEXT_MAX_LENGTH - 1).join('')}…`;
}
