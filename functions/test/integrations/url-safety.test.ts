import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertPublicUrl, fetchChecked, isPublicAddress } from '../../src/adapters/integrations/url-safety.js';

/** The module's own DNS lookup (node:dns/promises), answered by a test while `dns.answer` is set. */
const dns = vi.hoisted(() => ({
  answer: undefined as undefined | ((host: string) => Promise<{ address: string; family: number }[]>),
}));
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = ((host: string, options: object) =>
    dns.answer ? dns.answer(host) : real.lookup(host, options as never)) as typeof real.lookup;
  return { ...real, default: { ...real, lookup }, lookup };
});

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

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::6810:84e5',
    '::ffff:93.184.215.14',
    '2a00:1450:4001:82b::200e',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

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
    const url = await assertPublicUrl(
      'https://blog.example/x',
      { allowPrivate: false },
      resolver({ 'blog.example': ['93.184.215.14', '2606:4700::1'] }),
    );
    expect(url.hostname).toBe('blog.example');
  });

  it('refuses a host with any private address (e.g. DNS pointing at the metadata service)', async () => {
    await expect(
      assertPublicUrl(
        'https://evil.example',
        { allowPrivate: false },
        resolver({ 'evil.example': ['93.184.215.14', '169.254.169.254'] }),
      ),
    ).rejects.toMatchObject({ code: 'forbidden_url' });
  });

  it('refuses literal private addresses, including IPv4 forms the URL parser normalises', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00::1]:8080/',
    ]) {
      await expect(assertPublicUrl(url, { allowPrivate: false }, resolver({}))).rejects.toMatchObject({
        code: 'forbidden_url',
      });
    }
  });

  it('an unknown host → unreachable', async () => {
    await expect(assertPublicUrl('https://nope.example', { allowPrivate: false }, resolver({}))).rejects.toMatchObject({
      code: 'unreachable',
    });
  });

  it('allowPrivate skips the address check but never the scheme check', async () => {
    await expect(assertPublicUrl('http://127.0.0.1:8080/', { allowPrivate: true })).resolves.toBeInstanceOf(URL);
    await expect(assertPublicUrl('file:///etc/passwd', { allowPrivate: true })).rejects.toMatchObject({
      code: 'forbidden_url',
    });
    await expect(assertPublicUrl('gopher://127.0.0.1/', { allowPrivate: true })).rejects.toMatchObject({
      code: 'forbidden_url',
    });
  });
});

describe('fetchChecked connects to the address it checked (no second lookup: DNS rebinding)', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  /** A resolver that answers from a list per call (a zero-TTL name can change between lookups) and logs the names asked. */
  const rebinding = (answers: string[][]) => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      const addresses = answers[Math.min(asked.length, answers.length - 1)]!;
      asked.push(host);
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return { resolve, asked };
  };

  /** A local HTTP server on 127.0.0.1 that logs what reaches it. */
  const server = async (
    handler: (req: { url?: string; headers: IncomingHttpHeaders }, res: import('node:http').ServerResponse) => void,
  ) => {
    const hits: { url?: string; headers: IncomingHttpHeaders }[] = [];
    const srv: Server = createServer((req, res) => {
      hits.push({ url: req.url, headers: req.headers });
      handler(req, res);
    });
    await new Promise<void>((done) => srv.listen(0, '127.0.0.1', done));
    closers.push(() => new Promise<void>((done) => srv.close(() => done())));
    return { port: (srv.address() as AddressInfo).port, hits };
  };

  /** The addresses sockets connect to (each socket reports its lookup result). */
  const watchConnections = () => {
    const addresses: string[] = [];
    const connect = net.Socket.prototype.connect;
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      this.on('lookup', (err: Error | null, address: string) => {
        if (!err) addresses.push(address);
      });
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    });
    return addresses;
  };

  it('in AWS the connection goes to the public address that was checked, not to where the name points a moment later', async () => {
    // A zero-TTL name: the check's lookup (the module's node:dns/promises) answers a public
    // address; any later lookup by the system resolver finds "localhost" = the loopback, where a
    // server waits (the rebinding target: think 169.254.169.254).
    const target = await server((_req, res) => res.end('internal data'));
    const rebind = rebinding([['93.184.215.14']]);
    dns.answer = rebind.resolve;
    const connections = watchConnections();
    try {
      const result = fetchChecked(`http://localhost:${target.port}/`, {}, { allowPrivate: false, timeoutMs: 1_000 });

      // 93.184.215.14 is not reachable from a test (or answers nothing on this port): what matters is where the socket went.
      await expect(result).rejects.toMatchObject({ code: 'unreachable' });
    } finally {
      dns.answer = undefined;
    }
    expect(rebind.asked).toEqual(['localhost']);
    expect(connections).toContain('93.184.215.14');
    expect(connections.filter((a) => !isPublicAddress(a))).toEqual([]);
    expect(target.hits).toEqual([]);
  });

  it('an injected resolver is asked once per hop and the socket uses its answer (no system lookup)', async () => {
    const target = await server((_req, res) => res.end('internal data'));
    const rebind = rebinding([['93.184.215.14'], ['127.0.0.1']]);
    const connections = watchConnections();

    await expect(
      fetchChecked(`http://localhost:${target.port}/`, {}, { allowPrivate: false, timeoutMs: 1_000 }, rebind.resolve),
    ).rejects.toMatchObject({ code: 'unreachable' });
    expect(rebind.asked).toEqual(['localhost']);
    expect(connections).toContain('93.184.215.14');
    expect(connections.filter((a) => !isPublicAddress(a))).toEqual([]);
    expect(target.hits).toEqual([]);
  });

  it('in AWS a name answering a private address is refused before any connection', async () => {
    const connections = watchConnections();
    for (const answer of [['169.254.169.254'], ['93.184.215.14', '127.0.0.1'], ['::ffff:10.0.0.1']]) {
      const dns = rebinding([answer]);
      await expect(
        fetchChecked('https://rebind.example/wp-json/', {}, { allowPrivate: false }, dns.resolve),
      ).rejects.toMatchObject({
        code: 'forbidden_url',
        message: expect.stringContaining('private or local network address'),
      });
      expect(dns.asked).toEqual(['rebind.example']);
    }
    expect(connections).toEqual([]);
  });

  it('connects to the resolved address while the Host header keeps the name; answers decode as with fetch', async () => {
    const site = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ ok: true })));
    });
    const dns = rebinding([['127.0.0.1'], ['10.9.9.9']]);

    const { response, url } = await fetchChecked(
      `http://wp.example:${site.port}/wp-json/?a=1`,
      { headers: { Authorization: 'Basic eDp5' } },
      { allowPrivate: true },
      dns.resolve,
    );

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(url).toBe(`http://wp.example:${site.port}/wp-json/?a=1`);
    expect(dns.asked).toEqual(['wp.example']);
    expect(site.hits).toHaveLength(1);
    expect(site.hits[0]).toMatchObject({
      url: '/wp-json/?a=1',
      headers: { host: `wp.example:${site.port}`, authorization: 'Basic eDp5' },
    });
  });

  it('sends a POST body and returns a redirect answer to it unfollowed', async () => {
    let received = '';
    const site = await server((req, res) => {
      (req as unknown as NodeJS.ReadableStream).on('data', (chunk: Buffer) => (received += chunk.toString()));
      (req as unknown as NodeJS.ReadableStream).on('end', () => {
        res.writeHead(302, { location: '/elsewhere' });
        res.end();
      });
    });
    const dns = rebinding([['127.0.0.1']]);
    const { response } = await fetchChecked(
      `http://hook.example:${site.port}/in`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      { allowPrivate: true },
      dns.resolve,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(received).toBe('{"a":1}');
    expect(site.hits[0]?.headers).toMatchObject({ 'content-type': 'application/json', 'content-length': '7' });
  });

  it('resolves and pins each redirect hop anew', async () => {
    const site = await server((req, res) => {
      if (req.headers.host?.startsWith('wp.example')) {
        res.writeHead(301, { location: `http://www.wp.example:${(req.headers.host ?? '').split(':')[1]}/wp-json/` });
        res.end();
      } else res.end('final');
    });
    const dns = rebinding([['127.0.0.1']]);
    const { response, url } = await fetchChecked(
      `http://wp.example:${site.port}/wp-json/`,
      {},
      { allowPrivate: true },
      dns.resolve,
    );
    expect(await response.text()).toBe('final');
    expect(url).toBe(`http://www.wp.example:${site.port}/wp-json/`);
    expect(dns.asked).toEqual(['wp.example', 'www.wp.example']);
    expect(site.hits.map((h) => h.headers.host)).toEqual([`wp.example:${site.port}`, `www.wp.example:${site.port}`]);
  });

  it('TLS to the resolved address still names the host (SNI, so the certificate is checked for the name)', async () => {
    const names: (string | undefined)[] = [];
    const tls = createTlsServer({
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(new Error('no certificate here'));
      },
    });
    tls.on('tlsClientError', () => undefined);
    await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
    closers.push(() => new Promise<void>((done) => tls.close(() => done())));
    const port = (tls.address() as AddressInfo).port;
    const dns = rebinding([['127.0.0.1']]);

    await expect(
      fetchChecked(`https://wp.example:${port}/`, {}, { allowPrivate: true, timeoutMs: 2_000 }, dns.resolve),
    ).rejects.toMatchObject({
      code: 'unreachable',
    });
    expect(names).toEqual(['wp.example']);
    expect(dns.asked).toEqual(['wp.example']);
  });
});
