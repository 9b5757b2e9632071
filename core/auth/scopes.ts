/**
 * What a key may do. Each route names the one scope it needs; a new account's keys hold them all,
 * and a key can only issue keys with scopes it holds itself (no escalation through key issuance).
 */
export const SCOPES = [
  'generate',
  'jobs:read',
  'jobs:write',
  'catalog:read',
  'configs:read',
  'configs:write',
  'usage:read',
  'billing:read',
  'billing:write',
  'keys:read',
  'keys:write',
  'audit:read',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];
