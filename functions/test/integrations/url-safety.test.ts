import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPublicAddress } from '../../src/adapters/integrations/url-safety.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    'ff02::1',
    '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::6810:84e5', '::ffff:93.184.215.14', '2a00:1450:4001:82b::200e'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('refuses text that is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('1.2.3')).toBe(false);
  });
});

describe('assertPublicUrl', () => {
  const resolver = (map: Record<string, string[]>) => async (host: string) => {
    const addresses = map[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('accepts a host whose every address is public', async () => {
    const url = await assertPublicUrl('https://blog.example/x', { allowPrivate: false }, resolver({ 'blog.example': ['93.184.215.14', '2606:4700::1'] }));
    expect(url.hostname).toBe('blog.example');
  });

  it('refuses a host with any private address (e.g. DNS pointing at the metadata service)', async () => {
    await expect(
      assertPublicUrl('https://evil.example', { allowPrivate: false }, resolver({ 'evil.example': ['93.184.215.14', '169.254.169.254'] })),
    ).rejects.toMatchObject({ code: 'forbidden_url' });
  });

  it('refuses literal private addresses, including IPv4 forms the URL parser normalises', async () => {
    for (const url of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/', 'http://[fd00::1]:8080/']) {
      await expect(assertPublicUrl(url, { allowPrivate: false }, resolver({}))).rejects.toMatchObject({ code: 'forbidden_url' });
    }
  });

  it('an unknown host → unreachable', async () => {
    await expect(assertPublicUrl('https://nope.example', { allowPrivate: false }, resolver({}))).rejects.toMatchObject({ code: 'unreachable' });
  });

  it('allowPrivate skips the address check but never the scheme check', async () => {
    await expect(assertPublicUrl('http://127.0.0.1:8080/', { allowPrivate: true })).resolves.toBeInstanceOf(URL);
    await expect(assertPublicUrl('file:///etc/passwd', { allowPrivate: true })).rejects.toMatchObject({ code: 'forbidden_url' });
    await expect(assertPublicUrl('gopher://127.0.0.1/', { allowPrivate: true })).rejects.toMatchObject({ code: 'forbidden_url' });
  });
});
