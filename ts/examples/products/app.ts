/**
 * The products reference application: a paginated catalogue with bearer
 * authentication on writes, plus the versioned users listing (`/api/v1/users` deprecated, `/api/v2/users`).
 */

/**
 * @schema Product
 * @property {integer minimum=1} id.required - Product id
 * @property {string minLength=1} name.required - Product name
 * @property {string} description.required - Free text
 * @property {number exclusiveMinimum=0} price.required - Price in USD, greater than 0
 * @property {integer minimum=1} categoryId.required - Category (1 electronics, 2 books, 3 home)
 * @property {array<string>} tags.required - Labels
 * @property {string format=date-time} createdAt.required - Creation time (ISO 8601)
 * @property {string format=date-time} updatedAt.required - Last change (ISO 8601)
 */

/**
 * @schema ProductImage
 * @property {integer} size.required - Bytes
 * @property {string} mimetype.required - The type the upload declared
 * @property {string} filename.required - The name the upload gave
 */

/**
 * @schema ProductList
 * @property {array<Product>} data.required - The products of this page
 * @property {integer} total.required - Products matching the filters, all pages
 * @property {integer} page.required - This page (from 1)
 * @property {integer} limit.required - Page size
 */

/**
 * @schema Error
 * @property {string} error.required - What went wrong
 * @property {integer} code.required - The HTTP status code
 */

/**
 * @schema ApiError
 * @property {string} error.required - What went wrong
 * @property {string} code.required - A stable error code
 * @property {string} timestamp - When (ISO 8601)
 * @property {string} path - The request path
 */

/**
 * @schema ValidationError
 * @property {string} error.required - Which fields are missing or invalid
 * @property {integer} code.required - 400
 * @property {array<string>} fields - The fields concerned
 */

/**
 * @schema AuthError
 * @property {string} error.required - Missing bearer token, or Invalid bearer token
 * @property {integer} code.required - 401
 */

/**
 * @component parameter ProductId {integer} id.path - Product id
 * @component response ProductNotFound {Error} - No product has this id
 */

/**
 * @schema User
 * @property {integer} id.required - User id
 * @property {string} name.required - Display name
 * @property {string} email - Contact address (v2 only)
 */

/**
 * @tag Products - The catalogue: anyone reads it, writes need a bearer token
 * @tag Users - The users listing, in two versions (v1 is deprecated)
 */
import {
  Application,
  type ApplicationConfig,
  cors,
  type Logger,
  type Registrar,
  requestLogger,
} from '../../src/app/index.js';
import { mountReferenceDocs, SAME_ORIGIN } from '../docs.js';
import { REFERENCE_VALIDATION } from '../validation.js';
import { bearerAuth, configuredToken } from './auth.js';
import { Catalog } from './catalog.js';
import { ProductController } from './controller.js';
import { ImageStore } from './images.js';
import { PRODUCTS_VALIDATION, productsErrors } from './validation.js';

export interface ProductsOptions {
  catalog?: Catalog;
  /** The bearer token writes need (default: `API_TOKEN`, else `demo-token`). */
  token?: string;
  /** Where product images are kept (default: a folder of its own under the temporary directory). */
  imageDir?: string;
}

/** The largest product image (the route's body limit leaves room for the form around it). */
export const IMAGE_LIMIT = 5 * 1024 * 1024;

/** Registers the products API under `/api` on an application (it also names the `auth` middleware). */
export function registerProducts(app: Application, options: ProductsOptions = {}): void {
  app.alias('auth', bearerAuth(options.token ?? configuredToken()));
  const products = new ProductController(options.catalog ?? new Catalog(), new ImageStore(options.imageDir));
  // Validated whatever the hosting application says; its errors answered in the products API's bodies.
  app
    .group('/api', (api) => registerApiRoutes(api, products))
    .validate(PRODUCTS_VALIDATION)
    .onError(productsErrors);
}

function registerApiRoutes(api: Registrar, products: ProductController): void {
  /**
   * @summary List products
   * @description Paginated; filter by category (id or name) and by a search text in name and description.
   * @param {integer minimum=1 maximum=1000000 default=1} page.query.optional - Page number, from 1
   * @param {integer minimum=1 maximum=100 default=10} limit.query.optional - Page size
   * @param {string} category.query.optional - Category id or name
   * @param {string} search.query.optional - Text to look for
   * @produces application/json
   * @response 200 {ProductList} One page of products
   * @response 400 {Error} page or limit is not a positive integer
   * @tags Products
   */
  api.get('/products', [products, 'index']).name('products.index');

  /**
   * @summary Show a product
   * @param #ProductId
   * @produces application/json
   * @response 200 {Product} The product
   * @response 404 #ProductNotFound
   * @tags Products
   */
  api.get('/products/:id<int>', [products, 'show']).name('products.show');

  /**
   * @summary Create a product
   * @param {string minLength=1 maxLength=200 pattern=\S} name.body.required - Product name, not blank
   * @param {string maxLength=2000} description.body.optional - Free text
   * @param {number exclusiveMinimum=0 maximum=1000000} price.body.required - Price in USD, greater than 0
   * @param {integer minimum=1} categoryId.body.required - Category id
   * @param {array<string maxLength=50> maxItems=20} tags.body.optional - Labels
   * @produces application/json
   * @response 201 {Product} The new product
   * @response 400 {ValidationError} A required field is missing or a value is invalid
   * @response 401 {AuthError} Missing or invalid bearer token
   * @security bearerAuth
   * @example request
   * { "name": "USB-C cable", "price": 9.99, "categoryId": 1 }
   * @tags Products
   */
  api.post('/products', [products, 'store']).name('products.store').middleware('auth');

  /**
   * @summary Update a product
   * @param #ProductId
   * @param {string minLength=1 maxLength=200 pattern=\S} name.body.optional - Product name, not blank
   * @param {string maxLength=2000} description.body.optional - Free text
   * @param {number exclusiveMinimum=0 maximum=1000000} price.body.optional - Price in USD, greater than 0
   * @param {integer minimum=1} categoryId.body.optional - Category id
   * @param {array<string maxLength=50> maxItems=20} tags.body.optional - Labels
   * @produces application/json
   * @response 200 {Product} The updated product
   * @response 400 {ValidationError} A value is invalid
   * @response 401 {AuthError} Missing or invalid bearer token
   * @response 404 #ProductNotFound
   * @security bearerAuth
   * @tags Products
   */
  api.put('/products/:id<int>', [products, 'update']).name('products.update').middleware('auth');

  /**
   * @summary Delete a product
   * @param #ProductId
   * @response 204 Deleted
   * @response 401 {AuthError} Missing or invalid bearer token
   * @response 404 #ProductNotFound
   * @security bearerAuth
   * @tags Products
   */
  api.delete('/products/:id<int>', [products, 'destroy']).name('products.destroy').middleware('auth');

  /**
   * @summary Upload a product's image
   * @description Replaces the image the product had. One PNG, JPEG, GIF or WebP file, at most 5 MiB.
   * @param #ProductId
   * @param {file} image.formData.required image/png, image/jpeg, image/gif, image/webp - The picture
   * @response 201 {ProductImage} The stored image
   * @response 400 {ValidationError} No image, several, or a file of another type
   * @response 401 {AuthError} Missing or invalid bearer token
   * @response 404 #ProductNotFound
   * @response 413 {Error} The image is larger than 5 MiB
   * @response 415 {Error} The body is not multipart/form-data
   * @security bearerAuth
   * @tags Products
   */
  api
    .post('/products/:id<int>/image', [products, 'storeImage'])
    .name('products.image.store')
    .middleware('auth')
    .bodyLimit(IMAGE_LIMIT + 64 * 1024)
    .uploads({ fileSize: IMAGE_LIMIT });

  /**
   * @summary Show a product's image
   * @param #ProductId
   * @response 200 {file} image/png, image/jpeg, image/gif, image/webp - The image, as uploaded
   * @response 404 {Error} No product has this id, or it has no image
   * @tags Products
   */
  api.get('/products/:id<int>/image', [products, 'showImage']).name('products.image.show');

  /**
   * @summary List users (v1)
   * @description Deprecated: use `GET /api/v2/users`, which adds the e-mail address.
   * @produces application/json
   * @response 200 {array<User>} Users with id and name
   * @response 4XX {Error} Refused before the handler ran: a body over the size limit (413), malformed JSON (400), an encoded body (415)
   * @deprecated true
   * @tags Users
   */
  api.get('/v1/users', [products, 'usersV1']).name('users.v1');

  /**
   * @summary List users (v2)
   * @produces application/json
   * @response 200 {array<User>} Users with id, name and e-mail
   * @response 4XX {Error} Refused before the handler ran: a body over the size limit (413), malformed JSON (400), an encoded body (415)
   * @tags Users
   */
  api.get('/v2/users', [products, 'usersV2']).name('users.v2');
}

export interface ProductsAppOptions extends ProductsOptions {
  config?: ApplicationConfig;
  /** Where the request log goes (default: the application's logger, else the console). */
  requestLog?: Pick<Logger, 'info'>;
}

/** CORS for the products API: the three headers on every answer, with `Authorization` so browsers can send the token. */
export const productsCors = () =>
  cors({ headers: ['Content-Type', 'Authorization'], permissionsOnEveryAnswer: true });

/** The products application on its own, with request logging and CORS. */
export function createProductsApp(options: ProductsAppOptions = {}): Application {
  const app = new Application({
    openapi: {
      info: {
        title: 'Products API',
        version: '1.0.0',
        description: 'A product catalogue with bearer auth on writes',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [SAME_ORIGIN],
    },
    validate: REFERENCE_VALIDATION,
    ...options.config,
  });
  const log = options.requestLog ?? options.config?.logger;
  app.middleware(requestLogger(log === undefined ? {} : { logger: log }));
  app.middleware(productsCors());
  registerProducts(app, options);
  mountReferenceDocs(app);
  return app;
}
