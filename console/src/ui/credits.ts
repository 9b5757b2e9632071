/** `1 credit`, `1,200 credits`. */
export const credits = (count: number): string => `${count.toLocaleString('en')} credit${count === 1 ? '' : 's'}`;
