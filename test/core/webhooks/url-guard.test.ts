import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { ProblemError } from '../../../core/problems.js';
import { refusalOf, UrlGuard, type Resolve } from '../../../core/webhooks/url-guard.js';

/** A resolver that answers from a table, as DNS would; a name it lacks does not resolve. */
function resolver(table: Record<string, string[]>): Resolve {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(guard: UrlGuard, url: string): Promise<string> {
  try {
    await guard.check(url);
  } catch (error) {
    expect(error).to.be.instanceOf(ProblemError);
    expect((error as ProblemError).type.slug).to.equal('webhook-url-refused');
    return (error as ProblemError).detail;
  }
  throw new Error(`${url} was not refused`);
}

describe('webhook URL guard', () => {
  it('lets public unicast addresses through, and nothing else', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34'])
      expect(refusalOf(address, false), address).to.equal(null);
    const refused: Record<string, RegExp> = {
      '127.0.0.1': /loopback/,
      '127.255.0.9': /loopback/,
      '::1': /loopback/,
      '10.1.2.3': /private/,
      '172.16.0.1': /private/,
      '192.168.1.1': /private/,
      '100.64.0.1': /carrier-grade NAT/,
      '169.254.10.10': /link-local/,
      'fe80::1': /link-local/,
      'fc00::1': /unique-local/,
      'fd12:3456::1': /unique-local/,
      '169.254.169.254': /metadata/,
      'fd00:ec2::254': /metadata/,
      '0.0.0.0': /unspecified/,
      '::': /unspecified/,
      '224.0.0.1': /multicast/,
      'ff02::1': /multicast/,
      '255.255.255.255': /broadcast/,
      '::ffff:127.0.0.1': /loopback/,
      '::ffff:10.0.0.1': /private/,
      '::ffff:169.254.169.254': /metadata/,
      '::7f00:1': /not a global unicast/,
      '64:ff9b::a00:1': /special-purpose/,
      '2002:a00:1::': /special-purpose/,
      '240.0.0.1': /special-purpose/,
    };
    for (const [address, reason] of Object.entries(refused))
      expect(refusalOf(address, false), address).to.match(reason);
  });

  it("lets the operator's private networks through when allowed, never metadata, link-local or the rest", () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.7', '100.64.1.1', 'fd12::1', '::ffff:10.0.0.1'])
      expect(refusalOf(address, true), address).to.equal(null);
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '169.254.1.1', 'fe80::1', '0.0.0.0', '224.0.0.1'])
      expect(refusalOf(address, true), address).not.to.equal(null);
    expect(refusalOf('10.0.0.1', false)).to.contain('the operator has not allowed private networks');
  });

  it('refuses what is not an http(s) URL to a host without credentials', async () => {
    const guard = new UrlGuard({ allowPrivateNetworks: true, resolve: resolver({ 'hooks.example.com': ['8.8.8.8'] }) });
    expect(await refusal(guard, 'ftp://hooks.example.com/')).to.contain('the scheme ftp is not http or https');
    expect(await refusal(guard, 'file:///etc/passwd')).to.contain('the scheme file');
    expect(await refusal(guard, 'https://user:secret@hooks.example.com/')).to.contain('credentials');
    expect(await refusal(guard, 'https://:secret@hooks.example.com/')).to.contain('credentials');
    expect(await refusal(guard, 'not a url')).to.contain('cannot be parsed');
    expect(await refusal(guard, `https://hooks.example.com/${'a'.repeat(2048)}`)).to.contain('longer than 2048');
    expect((await guard.check('https://hooks.example.com/in?x=1')).url.href).to.equal(
      'https://hooks.example.com/in?x=1',
    );
  });

  it('resolves the host and refuses it if any of its addresses is refused', async () => {
    const guard = new UrlGuard({
      allowPrivateNetworks: false,
      resolve: resolver({
        'public.example': ['8.8.8.8', '2606:4700:4700::1111'],
        'mixed.example': ['8.8.8.8', '10.0.0.5'],
        'metadata.example': ['169.254.169.254'],
      }),
    });
    expect((await guard.check('https://public.example/')).addresses.map((a) => a.address)).to.deep.equal([
      '8.8.8.8',
      '2606:4700:4700::1111',
    ]);
    expect(await refusal(guard, 'https://mixed.example/')).to.match(
      /mixed\.example resolves to 10\.0\.0\.5: .*private/,
    );
    expect(await refusal(guard, 'http://metadata.example/')).to.contain('metadata');
    expect(await refusal(guard, 'http://nowhere.example/')).to.contain('does not resolve (ENOTFOUND)');
    // Literal addresses, in every spelling the URL parser normalises, are checked without DNS.
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
    ])
      expect(await refusal(guard, url), url).to.contain('loopback');
  });

  it('refuses localhost after resolving it with the system resolver', async () => {
    const guard = new UrlGuard({ allowPrivateNetworks: false });
    expect(await refusal(guard, 'http://localhost:3000/hooks')).to.match(/localhost resolves to .*loopback/);
  });

  it('gives up on a host that does not resolve in time', async () => {
    const guard = new UrlGuard({
      allowPrivateNetworks: false,
      resolveTimeoutMs: 10,
      resolve: () => new Promise(() => {}),
    });
    expect(await refusal(guard, 'https://slow.example/')).to.contain('did not resolve within 10 ms');
  });
});
