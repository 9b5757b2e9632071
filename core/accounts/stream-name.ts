/**
 * The names of account streams, apart from the decider: the audit's workers read streams by name and
 * would otherwise load the whole account domain (its slices, problems, billing) to start.
 */
export const accountStream = (accountId: string): string => `account-${accountId}`;
/** The account id of an account stream; null for any other stream. */
export const accountIdOfStream = (stream: string): string | null =>
  stream.startsWith('account-') ? stream.slice('account-'.length) : null;
