import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { problem, ProblemError } from '../problems.js';
import { WebhookProblems } from './problems.js';

/** Resolves a host name to every address it has, as the system resolver does (hosts file included). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface UrlGuardOptions {
  /** Lets loopback, RFC 1918, CGNAT and unique-local addresses through (an operator's own receivers, tests). */
  allowPrivateNetworks: boolean;
  resolve?: Resolve;
  /** How long a host name may take to resolve. */
  resolveTimeoutMs?: number;
}

/** A URL that passed, and the addresses it was checked at: the only ones a delivery connects to. */
export interface CheckedUrl {
  url: URL;
  addresses: LookupAddress[];
}

export const MAX_URL_LENGTH = 2048;

/** Cloud metadata services: refused whatever the operator allows, since they hand out the host's credentials. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '169.254.170.2', '100.100.100.200']);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** What the operator setting lets through. Link-local stays refused: it is where metadata services live. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal', 'deprecatedSiteLocal']);

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private (RFC 1918) address',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10) address',
  uniqueLocal: 'a unique-local (fc00::/7) address',
  deprecatedSiteLocal: 'a site-local (fec0::/10) address',
  linkLocal: 'a link-local address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/**
 * Why an address may not be sent to, or null when it may: anything but a public unicast address is
 * refused (an IPv4-mapped IPv6 address as the IPv4 address it maps), unless the operator allows private
 * networks, which lets the ranges of PRIVATE_RANGES through, and nothing else.
 */
export function refusalOf(address: string, allowPrivateNetworks: boolean): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const normal = parsed.toNormalizedString();
  const shown = parsed.toString();
  if (METADATA_ADDRESSES.has(normal) || METADATA_ADDRESSES.has(shown)) return `${shown} is a cloud metadata address`;
  const range = parsed.range();
  // Every public IPv6 address is in 2000::/3; the rest (IPv4-compatible ::/96 among them) is not sent to.
  if (range === 'unicast' && parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6))
    return `${shown} is not a global unicast address`;
  if (range === 'unicast') return null;
  if (allowPrivateNetworks && PRIVATE_RANGES.has(range)) return null;
  const name = RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
  const hint = PRIVATE_RANGES.has(range) ? ' (the operator has not allowed private networks)' : '';
  return `${shown} is ${name}${hint}`;
}

/** Refuses what is not an http(s) URL to a host, without credentials; answers it parsed. */
export function parseWebhookUrl(text: string): URL {
  if (text.length > MAX_URL_LENGTH) throw refused(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused('the URL cannot be parsed');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(`the scheme ${url.protocol.slice(0, -1)} is not http or https`);
  if (url.username !== '' || url.password !== '') throw refused('the URL may not carry credentials');
  if (url.hostname === '') throw refused('the URL has no host');
  return url;
}

/** The host as an address or name, IPv6 literals without their brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Where webhook URLs are checked, at creation and again before every attempt: the URL's form, then every
 * address its host resolves to. A delivery connects only to the addresses checked (`pinnedLookup`), so a
 * name that resolves elsewhere between the check and the connection (DNS rebinding) cannot win.
 */
export class UrlGuard {
  private readonly resolve: Resolve;
  private readonly resolveTimeoutMs: number;

  constructor(private readonly options: UrlGuardOptions) {
    this.resolve = options.resolve ?? systemResolve;
    this.resolveTimeoutMs = options.resolveTimeoutMs ?? 5000;
  }

  /** Throws the problem `webhook-url-refused`, with the reason in its detail. */
  async check(text: string): Promise<CheckedUrl> {
    const url = parseWebhookUrl(text);
    const host = hostOf(url);
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await this.lookup(host);
    if (addresses.length === 0) throw refused(`${host} resolves to no address`);
    for (const { address } of addresses) {
      const reason = refusalOf(address, this.options.allowPrivateNetworks);
      if (reason !== null) throw refused(isIP(host) ? reason : `${host} resolves to ${address}: ${reason}`);
    }
    return { url, addresses };
  }

  private async lookup(host: string): Promise<LookupAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(refused(`${host} did not resolve within ${this.resolveTimeoutMs} ms`)),
        this.resolveTimeoutMs,
      );
    });
    try {
      return await Promise.race([this.resolve(host), timeout]);
    } catch (error) {
      if (isRefusal(error)) throw error;
      throw refused(`${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    } finally {
      clearTimeout(timer);
    }
  }
}

const refused = (reason: string): ProblemError =>
  problem(WebhookProblems.urlRefused, `the webhook URL is refused: ${reason}`, {
    errors: [{ in: 'body', pointer: '/url', message: reason }],
  });

const isRefusal = (error: unknown): boolean =>
  error instanceof ProblemError && error.type === WebhookProblems.urlRefused;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http that answers only the addresses that were checked, whatever the name
 * resolves to now: the connection goes where the check looked.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]) {
  return (_hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    const candidates = addresses.filter((address) => family === 0 || address.family === family);
    if (candidates.length === 0) {
      const error: NodeJS.ErrnoException = new Error('no checked address of the family asked for');
      error.code = 'ENOTFOUND';
      return callback(error, '');
    }
    if (options.all) return callback(null, candidates);
    return callback(null, candidates[0]!.address, candidates[0]!.family);
  };
}
