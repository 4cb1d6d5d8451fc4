/**
 * The articles reference application: articles with comments, written to show one contract doing all
 * the work. Its doc comments give bounds, formats, defaults, inline objects, reusable components and
 * optional security; validation enforces them and the OpenAPI document states them, so the handlers check
 * nothing by hand. Every refusal, the framework's own included (a slug that is not one, an article the
 * binding does not find, a body too large or of another type), answers in the one error shape the app
 * declares (`{ errors: { body: [...] } }`), and the document says so. An API fuzzer (schemathesis) finds
 * nothing the document does not describe (tests/e2e/schemathesis.test.ts).
 *
 *     npx tsx ts/examples/articles/server.ts      # PORT, default 3000; API_TOKEN, default demo-token
 */

/**
 * Who wrote an article or a comment.
 * @schema Author
 * @property {string minLength=1} name.required - Display name
 */

/**
 * @schema Article
 * @property {string pattern=^[a-z0-9-]+$} slug.required - The article's id in URLs, made from its title
 * @property {string minLength=1 maxLength=120} title.required - Title
 * @property {string minLength=1} body.required - Text
 * @property {array<string> maxItems=5} tags.required - Labels
 * @property {Author} author.required - Who wrote it
 * @property {string format=date-time} createdAt.required - When
 */

/**
 * @schema Comment
 * @property {integer minimum=1} id.required - Identifier
 * @property {string minLength=1} body.required - Text
 * @property {Author} author.required - Who wrote it (`anonymous` without a token)
 * @property {string format=date-time} createdAt.required - When
 */

/**
 * Every error of the API, whoever answers it: the messages, one per problem.
 * @schema Errors
 * @property {{body: array<string> minItems=1}} errors.required - What went wrong
 */

/**
 * @component parameter Article {string pattern=^[a-z0-9-]+$} article.path - The article's slug
 * @component parameter Limit {integer minimum=1 maximum=50 default=20} limit.query - Page size
 * @component parameter Offset {integer minimum=0 maximum=100000 default=0} offset.query - Items to skip
 * @component response ArticleNotFound {Errors} - No article has this slug
 * @component response Unauthorized {Errors} - No token, or a wrong one
 * @component response Full {Errors} - The demo holds as many as it may: delete some first
 */

/**
 * @tag Articles - Articles: anyone reads them, writing needs a token
 * @tag Comments - Comments: anyone may comment, signed with the token's name when one is sent
 */
import { timingSafeEqual } from 'node:crypto';
import {
  Application,
  type ApplicationConfig,
  type ErrorHandler,
  HttpError,
  type Middleware,
  RequestValidationError,
  Response,
  requestLogger,
} from '../../src/app/index.js';
import { mountReferenceDocs } from '../docs.js';
import { type Article, ArticleStore, type Author } from './store.js';

/** The JSON Schema of {@link errorsBody}, for the document's answers the framework gives. */
export const ERRORS_SCHEMA = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'object',
      required: ['body'],
      properties: { body: { type: 'array', minItems: 1, items: { type: 'string' } } },
    },
  },
} as const;

/** `{ errors: { body: [...] } }`: the one error body of the API. */
export function errorsBody(...messages: string[]): { errors: { body: string[] } } {
  return { errors: { body: messages } };
}

export interface ArticlesOptions {
  store?: ArticleStore;
  /** The token writes need (default `API_TOKEN`, else `demo-token`). */
  token?: string;
  config?: ApplicationConfig;
}

/** The articles application on its own, with request logging. */
export function createArticlesApp(options: ArticlesOptions = {}): Application {
  const store = options.store ?? new ArticleStore();
  const token = options.token ?? (process.env.API_TOKEN || 'demo-token');
  const app = new Application({
    openapi: {
      info: {
        title: 'Articles API',
        version: '1.0.0',
        description: 'Articles and their comments',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      // The routes live under /api: the document's paths are relative to it (`/articles`, not `/api/articles`).
      servers: [{ url: '/api', description: 'The API on the server this document was loaded from' }],
    },
    validate: {
      responses: true,
      // RealWorld's choice: a request that breaks the contract is 422, in the API's error body.
      onInvalid: {
        status: 422,
        schema: ERRORS_SCHEMA,
        handler: (error) => new Response().status(422).json(errorsBody(...error.details.map(detailText))),
      },
    },
    ...options.config,
  })
    // The framework's own refusals too (404, 405, 413, 415, malformed JSON), in the same body.
    .onError(answerErrors, { schema: ERRORS_SCHEMA })
    .bind('article', (slug) => store.get(slug));
  app.middleware(
    requestLogger(options.config?.logger === undefined ? {} : { logger: options.config.logger }),
  );
  app.alias('auth', signedIn(token, true));
  app.alias('maybeAuth', signedIn(token, false));

  app.group('/api', (api) => {
    /**
     * @summary List articles
     * @description Newest last; filter by tag.
     * @param {string minLength=1 maxLength=30} tag.query - Only articles with this tag
     * @param #Limit
     * @param #Offset
     * @response 200 {{articles: array<Article>, count: integer minimum=0}} A page, and how many match
     * @tags Articles
     */
    api.get('/articles', (req, res) => res.json(store.list(req.valid('query')))).name('articles.index');

    /**
     * @summary Write an article
     * @body {{article: {title: string minLength=1 maxLength=120 pattern=\S, body: string minLength=1 maxLength=20000, tags?: array<string minLength=1 maxLength=30> maxItems=5}}} - The article
     * @response 201 {{article: Article}} The article, with its slug
     * @response 401 #Unauthorized
     * @response 409 #Full
     * @security bearerAuth
     * @tags Articles
     */
    api
      .post('/articles', (req, res) => {
        if (store.full) throw new HttpError(409, 'The demo holds 500 articles: delete some first');
        const { article } = req.valid('body');
        const created = store.create(article, req.get('author') as Author);
        return res.status(201).header('Location', `/api/articles/${created.slug}`).json({ article: created });
      })
      .middleware('auth')
      .name('articles.store');

    /**
     * @summary Show an article
     * @param #Article
     * @response 200 {{article: Article}} The article
     * @response 404 #ArticleNotFound
     * @tags Articles
     */
    api
      .get('/articles/:article<slug>', (_req, res, article: Article) => res.json({ article }))
      .name('articles.show');

    /**
     * @summary Delete an article
     * @param #Article
     * @response 204 Deleted, with its comments
     * @response 401 #Unauthorized
     * @response 404 #ArticleNotFound
     * @security bearerAuth
     * @tags Articles
     */
    api
      .delete('/articles/:article<slug>', (_req, res, article: Article) => {
        store.delete(article.slug);
        return res.status(204).send();
      })
      .middleware('auth')
      .name('articles.destroy');

    /**
     * @summary List an article's comments
     * @param #Article
     * @response 200 {{comments: array<Comment>}} Oldest first
     * @response 404 #ArticleNotFound
     * @tags Comments
     */
    api
      .get('/articles/:article<slug>/comments', (_req, res, article: Article) =>
        res.json({ comments: store.comments(article.slug) }),
      )
      .name('comments.index');

    /**
     * @summary Comment on an article
     * @description Signed with the token's name when a token is sent, `anonymous` otherwise.
     * @param #Article
     * @body {{comment: {body: string minLength=1 maxLength=2000 pattern=\S}}} - The comment
     * @response 201 {{comment: Comment}} The comment
     * @response 401 #Unauthorized
     * @response 404 #ArticleNotFound
     * @response 409 #Full
     * @security none
     * @security bearerAuth
     * @tags Comments
     */
    api
      .post('/articles/:article<slug>/comments', (req, res, article: Article) => {
        const { comment } = req.valid('body');
        const created = store.comment(article.slug, comment.body, req.get('author') as Author);
        if (created === null) throw new HttpError(409, 'This article has 500 comments: no more');
        return res.status(201).json({ comment: created });
      })
      .middleware('maybeAuth')
      .name('comments.store');

    /**
     * @summary Show a comment
     * @param {integer} id.path - The comment's id
     * @response 200 {{comment: Comment}} The comment
     * @response 404 {Errors} No comment has this id, or the id is not a number
     * @tags Comments
     */
    api
      .get('/comments/:id<int>', (req, res) => {
        const comment = store.findComment(Number(req.param('id')));
        if (comment === undefined) throw new HttpError(404, 'No comment has this id');
        return res.json({ comment });
      })
      .name('comments.show');

    /**
     * @summary List the tags in use
     * @response 200 {{tags: array<string>}} Sorted
     * @response 4XX {Errors} Refused before the handler ran (a request target or head too large: 414, 431)
     * @tags Articles
     */
    api.get('/tags', (_req, res) => res.json({ tags: store.tags() })).name('tags.index');
  });
  mountReferenceDocs(app);
  return app;
}

/** Any error, as `{ errors: { body } }` with its status; a bare 500 for what is not an HTTP error. */
const answerErrors: ErrorHandler = (error, _req, res) => {
  if (error instanceof RequestValidationError)
    return res.status(422).json(errorsBody(...error.details.map(detailText)));
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers)) res.header(name, value);
    return res.status(error.status).json(errorsBody(error.message));
  }
  return res.status(500).json(errorsBody('Internal Server Error'));
};

function detailText(detail: { in: string; name: string; message: string }): string {
  return `${detail.in} ${detail.name} ${detail.message}`.replace(/\s+/g, ' ').trim();
}

/**
 * `Authorization: Bearer <token>`: the author is `editor` with the right token; a wrong one is refused
 * (401, RFC 6750's `invalid_token`); none is refused when `required`, else the author is `anonymous`.
 */
function signedIn(token: string, required: boolean): Middleware {
  const expected = Buffer.from(token);
  return function signedIn(req, next) {
    const given = req.bearerToken();
    if (given === undefined) {
      if (required) throw unauthorized('A token is required', 'Bearer realm="articles"');
      req.set('author', { name: 'anonymous' } satisfies Author);
      return next.handle(req);
    }
    const actual = Buffer.from(given);
    // Constant time, so the token cannot be guessed byte by byte from response timings.
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
      throw unauthorized('The token is wrong', 'Bearer realm="articles", error="invalid_token"');
    req.set('author', { name: 'editor' } satisfies Author);
    return next.handle(req);
  };
}

function unauthorized(message: string, challenge: string): HttpError {
  return new HttpError(401, message, { headers: { 'WWW-Authenticate': challenge } });
}
