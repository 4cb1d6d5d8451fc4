/** `trustProxy`: which X-Forwarded-For entries become `req.ip` (and so the throttle's key), as in Express. */
import { describe, expect, test } from 'vitest';
import {
  Application,
  type ApplicationConfig,
  clientAddress,
  type TrustProxy,
} from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

describe('clientAddress(socket, X-Forwarded-For, trust)', () => {
  // [trust, socket address, X-Forwarded-For, expected req.ip]
  const table: [TrustProxy, string, string | undefined, string][] = [
    [false, '10.0.0.1', '1.2.3.4', '10.0.0.1'],
    ['loopback', '127.0.0.1', undefined, '127.0.0.1'],
    ['loopback', '127.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['loopback', '::ffff:127.0.0.1', '203.0.113.9', '203.0.113.9'],
    ['loopback', '::1', '203.0.113.9', '203.0.113.9'],
    // Not from a trusted proxy: the header is the client's own invention.
    ['loopback', '198.51.100.7', '203.0.113.9', '198.51.100.7'],
    // A spoofed entry left of the one the proxy wrote is never believed.
    ['loopback', '127.0.0.1', '6.6.6.6, 203.0.113.9', '203.0.113.9'],
    // Two proxies of the subnet: walk past both.
    [['10.0.0.0/8'], '10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.1', '203.0.113.9'],
    ['10.0.0.0/8, 192.168.0.0/16', '192.168.1.1', '203.0.113.9, 10.9.9.9', '203.0.113.9'],
    ['uniquelocal', '172.16.5.5', '203.0.113.9', '203.0.113.9'],
    // Hop counts: exactly that many proxies in front.
    [1, '198.51.100.7', '6.6.6.6, 203.0.113.9', '203.0.113.9'],
    [2, '198.51.100.7', '6.6.6.6, 203.0.113.9', '6.6.6.6'],
    [5, '198.51.100.7', '6.6.6.6, 203.0.113.9', '6.6.6.6'],
    [true, '198.51.100.7', '6.6.6.6, 203.0.113.9', '6.6.6.6'],
    // Junk in the header ends the walk at the hop that wrote it.
    ['loopback', '127.0.0.1', 'not-an-ip', '127.0.0.1'],
    [(address) => address === '127.0.0.1', '127.0.0.1', '203.0.113.9', '203.0.113.9'],
  ];
  test.each(table)('trust %j, socket %s, X-Forwarded-For %j → %s', (trust, socket, forwarded, expected) => {
    expect(clientAddress(socket, forwarded, trust)).toBe(expected);
  });

  test('a trustProxy entry that is not an address, a subnet or a name is a start-up error', () => {
    expect(() => new Application(withEngine({ trustProxy: 'proxy.internal' }))).toThrow(
      /trustProxy: "proxy.internal"/,
    );
    expect(() => new Application(withEngine({ trustProxy: '10.0.0.0/33' }))).toThrow(/prefix length/);
    expect(() => new Application(withEngine({ trustProxy: -1 }))).toThrow(/hop count/);
  });
});

describe('req.ip and the throttle key over real HTTP', () => {
  async function start(config: ApplicationConfig) {
    const app = new Application(withEngine(config));
    app.get('/ip', (req, res) => res.json({ ip: req.ip })).middleware('throttle:2,1');
    return listen(app);
  }

  test('behind a trusted proxy each forwarded client has its own throttle budget', async () => {
    const { server, base } = await start({ trustProxy: 'loopback' });
    try {
      const from = (client: string) => fetch(`${base}/ip`, { headers: { 'X-Forwarded-For': client } });
      expect(await (await from('203.0.113.1')).json()).toEqual({ ip: '203.0.113.1' });
      expect((await from('203.0.113.1')).status).toBe(200);
      expect((await from('203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(200);
    } finally {
      await server.closeGracefully(500);
    }
  });

  test('without trustProxy the header is ignored: req.ip is the socket address', async () => {
    const { server, base } = await start({});
    try {
      const reply = await fetch(`${base}/ip`, { headers: { 'X-Forwarded-For': '203.0.113.1' } });
      expect(await reply.json()).toEqual({ ip: '127.0.0.1' });
    } finally {
      await server.closeGracefully(500);
    }
  });
});
