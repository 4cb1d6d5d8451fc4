/**
 * The accounts reference application: the security middleware a browser-facing site switches on,
 * together (docs/framework/security.md).
 *
 * - `secureHeaders({ nonce: true })`: helmet's headers, and a Content-Security-Policy that lets an inline
 *   script run only with this request's nonce (the home page's one script has it; an injected one would not);
 * - `session()`: the signed `sid` cookie, the data in a memory store; a new id at login (`regenerate()`),
 *   the session deleted at logout (`destroy()`);
 * - `csrf({ token: 'session' })`: every form is posted from this origin and carries the token its page
 *   rendered (the sign-in form too: a forged login is an attack as well);
 * - `GET /api/me`, JSON behind the session, documented with the session cookie's security scheme
 *   (`GET /api/docs.json`).
 *
 * Started by `server.ts` (`npx tsx ts/examples/accounts/server.ts`); sign in as `ada`, password
 * `correct horse battery staple`.
 */

/**
 * @schema Me
 * @property {string} id - User id
 * @property {string} username - Sign-in name
 * @property {string} displayName - The name the pages show
 */

/**
 * @schema Error
 * @property {string} error - What went wrong
 * @property {integer} code - The HTTP status code
 */

/**
 * @tag Pages - HTML pages and their forms (CSRF token required on every form)
 * @tag Account - The signed-in user, as JSON
 */
import { randomBytes } from 'node:crypto';
import {
  Application,
  type ApplicationConfig,
  csrf,
  HttpError,
  type Middleware,
  type Request,
  Response,
  type Session,
  secureHeaders,
  session,
} from '../../src/app/index.js';
import { mountDocs } from '../../src/openapi/index.js';
import { homePage, loginPage } from './pages.js';
import { type User, Users } from './users.js';

/** What the session holds: the signed-in user's id (and `csrf()`'s secret, under its own key). */
interface AccountSession {
  userId: string;
}

export interface AccountsOptions {
  config?: ApplicationConfig;
  users?: Users;
  /** Cookie secret (default: `COOKIE_SECRET`, else random per process: sessions end at a restart). */
  secret?: string;
  /**
   * The session cookie's `Secure` attribute (default `true`). Browsers accept a `Secure` cookie from
   * `http://localhost`; over plain HTTP on another host, pass `false` to develop.
   */
  secureCookie?: boolean;
}

/** The session cookie's scheme in the OpenAPI document: `apiKey` in the cookie `sid`. */
export const SESSION_SCHEME = { type: 'apiKey', in: 'cookie', name: 'sid' } as const;

export function createAccountsApp(options: AccountsOptions = {}): Application {
  const users = options.users ?? Users.withDemoUser();
  const secret = options.secret ?? process.env.COOKIE_SECRET ?? randomBytes(32).toString('base64url');
  const app = new Application({
    openapi: { info: { title: 'Accounts', version: '1.0.0' } },
    ...options.config,
    cookies: { secrets: [secret] },
  });
  const security = [
    secureHeaders({ nonce: true }),
    session<AccountSession>({ cookie: { secure: options.secureCookie ?? true } }),
    csrf({ token: 'session' }),
  ] as const;
  app.group('', { middleware: security }, (site) => {
    const signedIn = (req: Request): User | null => {
      const id = req.get<Session<AccountSession>>('session')?.get('userId');
      return id === undefined ? null : users.find(id);
    };
    /** The signed-in user on the request as `user`, else 401 (JSON) or a redirect to the sign-in page. */
    const requireUser =
      (answer: 'json' | 'page'): Middleware<{ user: User }> =>
      (req, next) => {
        const user = signedIn(req);
        if (user !== null) return next.handle(req.set('user', user));
        if (answer === 'json') throw new HttpError(401, 'Sign in first');
        return new Response().redirect('/login', 303);
      };

    /**
     * @summary The sign-in page
     * @produces text/html
     * @response 200 The form (user name, password, CSRF token)
     * @tags Pages
     */
    site.get('/login', (req, res) => res.html(loginPage(req.get('csrfToken')())));

    /**
     * @summary Sign in
     * @consumes application/x-www-form-urlencoded
     * @param {string} username.body.required - User name
     * @param {string} password.body.required - Password
     * @param {string} _csrf.body.required - The token of the sign-in page
     * @response 303 Signed in: to the home page, with a new session cookie
     * @response 401 The sign-in page again, saying why
     * @response 403 {Error} Sent from another site, or without the page's token
     * @tags Pages
     */
    site.post('/login', async (req, res) => {
      const form = req.body<{ username?: string; password?: string }>();
      const user = await users.check(String(form.username ?? ''), String(form.password ?? ''));
      if (user === null)
        return res.status(401).html(loginPage(req.get('csrfToken')(), 'Wrong user name or password'));
      const current = req.get('session');
      // A new id: one planted in the browser before sign-in (session fixation) is worthless now.
      await current.regenerate();
      current.set('userId', user.id);
      return res.redirect('/', 303);
    });

    site.group('', { middleware: [requireUser('page')] }, (pages) => {
      /**
       * @summary The home page: the profile form, sign out, and the user as the API gives it
       * @produces text/html
       * @response 200 The page
       * @response 303 Not signed in: to the sign-in page
       * @tags Pages
       */
      pages.get('/', (req, res) =>
        res.html(homePage(req.get('user'), req.get('csrfToken')(), req.get('cspNonce'))),
      );

      /**
       * @summary Change the display name
       * @consumes application/x-www-form-urlencoded
       * @param {string minLength=1 maxLength=80} displayName.body.required - The new name
       * @param {string} _csrf.body.required - The token of the home page
       * @response 303 Saved: back to the home page
       * @response 403 {Error} Sent from another site, or without the page's token
       * @tags Pages
       */
      pages.post('/profile', (req, res) => {
        const name = String(req.body<{ displayName?: string }>().displayName ?? '').trim();
        if (name === '' || name.length > 80)
          throw new HttpError(400, 'A display name has 1 to 80 characters');
        users.rename(req.get('user').id, name);
        return res.redirect('/', 303);
      });

      /**
       * @summary Sign out
       * @param {string} _csrf.body.required - The token of the home page
       * @response 303 Signed out: the session deleted, to the sign-in page
       * @response 403 {Error} Sent from another site, or without the page's token
       * @tags Pages
       */
      pages.post('/logout', async (req, res) => {
        await req.get('session').destroy();
        return res.redirect('/login', 303);
      });
    });

    site.group('/api', { middleware: [requireUser('json')] }, (api) => {
      /**
       * @summary The signed-in user
       * @produces application/json
       * @response 200 {Me} The user
       * @response 401 {Error} Not signed in
       * @security sessionCookie
       * @tags Account
       */
      api.get('/me', (req, res) => res.json(req.get('user')));
    });
  });
  mountDocs(app, { security: { sessionCookie: SESSION_SCHEME } });
  return app;
}
