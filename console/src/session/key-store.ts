/**
 * The key lives in this tab's sessionStorage and nowhere else: not in a URL, a cookie or localStorage, and
 * it is never logged. Closing the tab forgets it.
 */
const STORAGE_KEY = 'finsynth.console.key';

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);

export const storeKey = (key: string): void => sessionStorage.setItem(STORAGE_KEY, key);

export const forgetKey = (): void => sessionStorage.removeItem(STORAGE_KEY);

/** `<prefix>_live_…` or `<prefix>_test_…`: the service checks the rest. */
export const looksLikeKey = (text: string): boolean => /^[a-z][a-z0-9]*_(live|test)_[0-9A-Za-z]+$/.test(text);
