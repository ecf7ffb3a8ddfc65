import type { LookupAddress } from 'node:dns';
import { UrlBlocked, AppError, URL_BLOCKED_MESSAGE } from '@sitelens/contracts';
import {
  assertPublicUrl,
  blockedReason,
  checkHostResolves,
  createSafeLookup,
  isBlockedAddress,
  parseIpLiteral,
  type RefusalDetail,
  type Resolver,
} from '../src';

describe('blockedReason: IPv4 ranges', () => {
  it.each([
    ['0.0.0.0', 'unspecified ("this network")'],
    ['0.255.255.255', 'unspecified ("this network")'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['192.0.0.8', 'IETF protocol assignment'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.99', 'documentation'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is refused as %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '11.0.0.1',
    '223.255.255.255',
  ])('%s is public', (address) => {
    expect(blockedReason(address)).toBeNull();
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('blockedReason: IPv6 ranges', () => {
  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'IETF protocol assignment'], // Teredo
    ['2001:2::1', 'IETF protocol assignment'], // benchmarking
    ['100::1', 'discard-only'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['::7f00:1', 'reserved'], // IPv4-compatible (deprecated)
    ['5f00::1', 'reserved'],
  ])('%s is refused as %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
    ['::ffff:10.0.0.1', 'private (IPv4-mapped)'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata) (IPv4-mapped)'],
    ['64:ff9b::10.0.0.1', 'private (NAT64)'],
    ['64:ff9b::7f00:1', 'loopback (NAT64)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (cloud metadata) (NAT64)'],
    ['2002:7f00:1::', 'loopback (6to4)'],
    ['2002:c0a8:101::1', 'private (6to4)'],
    ['2002:a9fe:a9fe::', 'link-local (cloud metadata) (6to4)'],
  ])('%s embeds a refused IPv4 address: %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (address) => {
      expect(blockedReason(address)).toBeNull();
    },
  );
});

describe('odd IPv4 spellings', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0x7F.0x0.0x0.0x1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['167772161', '10.0.0.1'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['[::1]', '::1'],
    ['127.0.0.1.', '127.0.0.1'],
  ])('%s parses as %s and is refused', (spelling, address) => {
    expect(parseIpLiteral(spelling)?.toString()).toBe(address);
    expect(isBlockedAddress(spelling)).toBe(true);
  });

  it('treats host names as names, not addresses', () => {
    expect(parseIpLiteral('example.com')).toBeNull();
    expect(parseIpLiteral('127.0.0.1.nip.io')).toBeNull();
    expect(blockedReason('example.com')).toBe('not an IP address');
  });
});

describe('assertPublicUrl', () => {
  const hosted = { allowPrivate: false };

  it('accepts public http and https URLs and returns the parsed URL', () => {
    expect(assertPublicUrl('https://example.com/a?b=1', hosted).href).toBe('https://example.com/a?b=1');
    expect(assertPublicUrl('http://8.8.8.8/', hosted).hostname).toBe('8.8.8.8');
  });

  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://0x7f.1/',
    'http://127.000.000.001/',
    'http://%31%32%37.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a00:1::]/',
    'http://[fd00::1]:8080/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0:6379/',
    'http://10.1.2.3/',
    'http://100.100.100.200/',
    'http://localhost:3000/',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ])('refuses %s with URL_BLOCKED', (url) => {
    expect(() => assertPublicUrl(url, hosted)).toThrow(UrlBlocked);
    try {
      assertPublicUrl(url, hosted);
    } catch (error) {
      expect((error as AppError).status).toBe(403);
    }
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/html,hi'])(
    'refuses the %s scheme even when private URLs are allowed',
    (url) => {
      expect(() => assertPublicUrl(url, { allowPrivate: true })).toThrow(/Only http and https/);
    },
  );

  it('answers 400 for text that is not a URL', () => {
    expect(() => assertPublicUrl('not a url', hosted)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('lets private addresses through when the deployment allows them', () => {
    expect(assertPublicUrl('http://127.0.0.1:8080/x', { allowPrivate: true }).port).toBe('8080');
  });

  it('applies a narrowed policy to literals', () => {
    const policy = (address: string) => (address === '127.0.0.1' ? null : blockedReason(address));
    expect(assertPublicUrl('http://127.0.0.1/', { allowPrivate: false, policy }).hostname).toBe('127.0.0.1');
    expect(() => assertPublicUrl('http://127.0.0.2/', { allowPrivate: false, policy })).toThrow(UrlBlocked);
  });
});

describe('checkHostResolves', () => {
  const fakeDns =
    (table: Record<string, string[]>): Resolver =>
    async (hostname) => {
      const addresses = table[hostname];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const resolve = fakeDns({
    'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'rebind.test': ['127.0.0.1'],
    'mixed.test': ['93.184.216.34', '10.0.0.7'],
    'metadata.test': ['169.254.169.254'],
    'mapped.test': ['::ffff:192.168.0.1'],
  });

  it('returns the addresses of a public name', async () => {
    await expect(checkHostResolves('public.test', { allowPrivate: false, resolve })).resolves.toHaveLength(2);
  });

  it.each([
    ['rebind.test', /resolves to 127\.0\.0\.1, a loopback address/],
    ['mixed.test', /resolves to 10\.0\.0\.7, a private address/],
    ['metadata.test', /link-local/],
    ['mapped.test', /private \(IPv4-mapped\)/],
  ])('refuses %s with the one message, the reason going only to the log', async (host, reason) => {
    const refusals: RefusalDetail[] = [];
    const error = await checkHostResolves(host, { allowPrivate: false, resolve, onRefused: (detail) => refusals.push(detail) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UrlBlocked);
    expect((error as UrlBlocked).message).toBe(URL_BLOCKED_MESSAGE);
    expect(refusals).toEqual([{ host, reason: expect.stringMatching(reason) }]);
  });

  it('checks literals and localhost names without asking DNS', async () => {
    const never: Resolver = async () => {
      throw new Error('DNS must not be asked');
    };
    await expect(checkHostResolves('0x7f000001', { allowPrivate: false, resolve: never })).rejects.toBeInstanceOf(UrlBlocked);
    await expect(checkHostResolves('localhost', { allowPrivate: false, resolve: never })).rejects.toBeInstanceOf(UrlBlocked);
    await expect(checkHostResolves('8.8.8.8', { allowPrivate: false, resolve: never })).resolves.toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
  });

  it('refuses a name that does not resolve like any other refusal in hosted mode', async () => {
    await expect(checkHostResolves('nowhere.test', { allowPrivate: false, resolve })).rejects.toMatchObject({
      code: 'URL_BLOCKED',
      message: URL_BLOCKED_MESSAGE,
    });
  });

  it('reports a name that does not resolve as UPSTREAM_ERROR when private URLs are allowed', async () => {
    await expect(checkHostResolves('nowhere.test', { allowPrivate: true, resolve })).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'Could not resolve host nowhere.test (ENOTFOUND)',
    });
  });

  describe('EGRESS_ALLOW', () => {
    const allow = { cidrs: ['10.0.0.0/8', '127.0.0.2/32'], hosts: ['wiki.corp.test'], suffixes: ['.staging.test'] };
    const corp = fakeDns({
      'wiki.corp.test': ['192.168.7.7'],
      'app.staging.test': ['172.16.0.9'],
      'mixed.test': ['93.184.216.34', '10.0.0.7'],
      'rebind.test': ['127.0.0.1'],
      'localhost.staging.test': ['127.0.0.1'],
      'meta.staging.test': ['169.254.169.254'],
      'zero.staging.test': ['0.0.0.0'],
    });

    it('lets listed ranges, names and subdomains through although they are private', async () => {
      await expect(checkHostResolves('mixed.test', { allowPrivate: false, allow, resolve: corp })).resolves.toHaveLength(2);
      await expect(checkHostResolves('wiki.corp.test', { allowPrivate: false, allow, resolve: corp })).resolves.toEqual([
        { address: '192.168.7.7', family: 4 },
      ]);
      await expect(checkHostResolves('app.staging.test', { allowPrivate: false, allow, resolve: corp })).resolves.toHaveLength(1);
      expect(assertPublicUrl('http://127.0.0.2:8080/', { allowPrivate: false, allow }).hostname).toBe('127.0.0.2');
      expect(assertPublicUrl('http://[::ffff:10.1.2.3]/', { allowPrivate: false, allow }).hostname).toBe('[::ffff:a01:203]');
    });

    it('still refuses what it does not list', async () => {
      await expect(checkHostResolves('rebind.test', { allowPrivate: false, allow, resolve: corp })).rejects.toBeInstanceOf(UrlBlocked);
      await expect(checkHostResolves('other.corp.test', { allowPrivate: false, allow, resolve: corp })).rejects.toBeInstanceOf(UrlBlocked);
      expect(() => assertPublicUrl('http://127.0.0.3/', { allowPrivate: false, allow })).toThrow(UrlBlocked);
      expect(() => assertPublicUrl('http://staging.test/', { allowPrivate: false, allow })).not.toThrow();
    });

    it('never lets a listed name reach loopback, link-local or 0.0.0.0 (a public record pointing home)', async () => {
      for (const host of ['localhost.staging.test', 'meta.staging.test', 'zero.staging.test']) {
        await expect(checkHostResolves(host, { allowPrivate: false, allow, resolve: corp })).rejects.toBeInstanceOf(UrlBlocked);
      }
    });
  });

  describe('createSafeLookup (the socket-level check)', () => {
    const call = (lookup: ReturnType<typeof createSafeLookup>, host: string, options: object) =>
      new Promise<{ error: Error | null; address: string | LookupAddress[]; family?: number }>((done) =>
        lookup(host, options, (error, address, family) => done({ error, address, family })),
      );

    it('answers in the shape asked for: all addresses, or one', async () => {
      const lookup = createSafeLookup({ allowPrivate: false, resolve });
      expect((await call(lookup, 'public.test', { all: true })).address).toEqual([
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ]);
      expect(await call(lookup, 'public.test', {})).toEqual({ error: null, address: '93.184.216.34', family: 4 });
      expect((await call(lookup, 'public.test', { family: 6 })).address).toBe('2606:2800:220:1:248:1893:25c8:1946');
    });

    it('fails the connection for a name that resolves to a blocked address', async () => {
      const lookup = createSafeLookup({ allowPrivate: false, resolve });
      const { error } = await call(lookup, 'rebind.test', { all: true });
      expect(error).toBeInstanceOf(UrlBlocked);
    });

    it('lets private answers through when the deployment allows them', async () => {
      const lookup = createSafeLookup({ allowPrivate: true, resolve });
      expect(await call(lookup, 'rebind.test', {})).toEqual({ error: null, address: '127.0.0.1', family: 4 });
    });
  });
});
