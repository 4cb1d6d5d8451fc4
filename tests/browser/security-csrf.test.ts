/**
 * CSRF from a real browser, on both servers: Chromium submits HTML forms, and its own `Origin` and
 * `Sec-Fetch-Site` decide. The application (127.0.0.1, one port) has a form behind `csrf()` (the origin
 * check) and one behind `csrf({ token: 'cookie' })` (a signed double-submit token):
 *
 * - a page of another site (`http://evil.example`, served by the browser's request interception, so it
 *   needs no DNS) auto-submits a form to each: 403 with the clear body, and the handler never runs;
 * - a page of the same site on another port (127.0.0.1, another server) does the same: 403 too (a
 *   different origin is not trusted by default, whatever the site);
 * - the application's own forms are accepted, the token form with the token it rendered; the same form
 *   without its token is refused (403, "CSRF token missing").
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, type ArborServer, csrf } from '../../ts/src/app/index.js';
import { chromiumForFile, serve } from './chromium.js';

const browser = chromiumForFile();

/** A page with one form posting `fields` to `action`, submitted by its button. */
function formPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  return `<!doctype html><title>form</title><form method="post" action="${action}">${inputs}<button>Send</button></form>`;
}

/** The victim: a transfer behind the origin check, another behind the token; counts what went through. */
function bank(server: 'node' | 'arbor'): { app: Application; done: string[] } {
  const app = new Application({ server, cookies: { secrets: ['a test secret of thirty-two bytes!!'] } });
  const done: string[] = [];
  app
    .group('/plain', (plain) => {
      plain.get('/form', (_req, res) => res.html(formPage('/plain/transfer', { amount: '100' })));
      plain.post('/transfer', (req, res) => {
        done.push(`plain ${req.body<{ amount: string }>().amount}`);
        return res.html('<!doctype html><title>done</title><p id="done">transferred</p>');
      });
    })
    .middleware(csrf());
  app.group('/token', { middleware: [csrf({ token: 'cookie' })] }, (token) => {
    token.get('/form', (req, res) =>
      res.html(formPage('/token/transfer', { amount: '200', _csrf: req.get('csrfToken')() })),
    );
    token.get('/bare', (_req, res) => res.html(formPage('/token/transfer', { amount: '300' })));
    token.post('/transfer', (req, res) => {
      done.push(`token ${req.body<{ amount: string }>().amount}`);
      return res.html('<!doctype html><title>done</title><p id="done">transferred</p>');
    });
  });
  return { app, done };
}

describe.each(['node', 'arbor'] as const)('CSRF from Chromium, server: %s', (serverKind) => {
  let bankServer: ArborServer;
  let bankOrigin: string;
  let siblingServer: ArborServer;
  let siblingOrigin: string;
  let done: string[];
  let page: Page;

  beforeAll(async () => {
    const victim = bank(serverKind);
    done = victim.done;
    const started = await serve(victim.app);
    bankServer = started.server;
    bankOrigin = started.origin;
    // The same site (127.0.0.1), another origin (port): a page the bank does not serve.
    const sibling = new Application({ server: serverKind });
    sibling.get('/plain', (_req, res) =>
      res.html(formPage(`${bankOrigin}/plain/transfer`, { amount: '900' })),
    );
    const siblingStarted = await serve(sibling);
    siblingServer = siblingStarted.server;
    siblingOrigin = siblingStarted.origin;
    page = await browser().newPage();
    // Another site's pages, served by interception: the form posts go to the bank for real.
    await page.route('http://evil.example/**', (route) => {
      const path = new URL(route.request().url()).pathname;
      const fields: Record<string, string> =
        path === '/token' ? { amount: '666', _csrf: 'forged.token' } : { amount: '666' };
      return route.fulfill({
        contentType: 'text/html',
        body: formPage(`${bankOrigin}${path === '/token' ? '/token' : '/plain'}/transfer`, fields),
      });
    });
  });
  afterAll(async () => {
    await page?.close();
    await bankServer?.closeGracefully(1000);
    await siblingServer?.closeGracefully(1000);
  });

  /** Opens `url`, submits its form, and returns the answer to the POST as the browser got it. */
  async function submit(url: string): Promise<{ status: number; body: string; origin: string | null }> {
    await page.goto(url);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('button'),
    ]);
    await page.waitForLoadState();
    return {
      status: response.status(),
      body: await response.text(),
      origin: (await response.request().allHeaders()).origin ?? null,
    };
  }

  it("another site's form is refused with 403 and the clear body; nothing is done", async () => {
    const before = done.length;
    const reply = await submit('http://evil.example/plain');
    expect(reply.origin).toBe('http://evil.example');
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual({
      error: 'Cross-site request refused: origin http://evil.example may not send forms here',
      code: 403,
    });
    expect(done.length).toBe(before);
  });

  it("another site's form with a made-up token is refused by its origin", async () => {
    const before = done.length;
    const reply = await submit('http://evil.example/token');
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error).toBe(
      'Cross-site request refused: origin http://evil.example may not send forms here',
    );
    expect(done.length).toBe(before);
  });

  it('a page of the same site on another port is another origin: refused', async () => {
    const before = done.length;
    const reply = await submit(`${siblingOrigin}/plain`);
    expect(reply.origin).toBe(siblingOrigin);
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error).toBe(
      `Cross-site request refused: origin ${siblingOrigin} may not send forms here`,
    );
    expect(done.length).toBe(before);
  });

  it("the application's own form is accepted", async () => {
    const reply = await submit(`${bankOrigin}/plain/form`);
    expect(reply.status).toBe(200);
    expect(await page.textContent('#done')).toBe('transferred');
    expect(done.at(-1)).toBe('plain 100');
  });

  it('token mode: its own form with the token it rendered is accepted, without it refused', async () => {
    const accepted = await submit(`${bankOrigin}/token/form`);
    expect(accepted.status).toBe(200);
    expect(done.at(-1)).toBe('token 200');
    const before = done.length;
    const bare = await submit(`${bankOrigin}/token/bare`);
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.body)).toEqual({
      error: 'CSRF token missing: send it in the form or the header',
      code: 403,
    });
    expect(done.length).toBe(before);
  });
});
