/** The subscription tiers, cheapest first: each has its prices, allowance and limits in pricing.yaml. */
export type Tier = 'free' | 'developer' | 'team' | 'scale';
export const TIERS: readonly Tier[] = ['free', 'developer', 'team', 'scale'];
