/** The products API handlers, registered with `[controller, 'method']` array callables. */
import { HttpError, type Request, type Response, type RouteRequest } from '../../src/app/index.js';
import type { Catalog, ProductInput } from './catalog.js';
import type { ImageStore } from './images.js';
import { ProductValidationError } from './validation.js';

const USERS = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com' },
  { id: 2, name: 'Alan Turing', email: 'alan@example.com' },
];

/** The errors below are thrown: the API group's `onError` answers them (validation.ts). */
const productNotFound = () => new HttpError(404, 'Product not found');

export class ProductController {
  readonly #catalog: Catalog;
  readonly #images: ImageStore;

  constructor(catalog: Catalog, images: ImageStore) {
    this.#catalog = catalog;
    this.#images = images;
  }

  /** The annotations bound page and limit (and give their defaults): nothing is checked here. */
  index(req: RouteRequest<'GET /api/products'>, res: Response): Response {
    return res.json(this.#catalog.list(req.valid('query')));
  }

  show(req: Request, res: Response): Response {
    const product = this.#catalog.get(Number(req.param('id')));
    if (product === undefined) throw productNotFound();
    return res.json(product);
  }

  store(req: RouteRequest<'POST /api/products'>, res: Response): Response {
    const product = this.#catalog.create(productFields(req.valid('body')));
    return res.status(201).header('Location', `/api/products/${product.id}`).json(product);
  }

  update(req: RouteRequest<'PUT /api/products/:id<int>'>, res: Response): Response {
    const id = Number(req.param('id'));
    if (this.#catalog.get(id) === undefined) throw productNotFound();
    return res.json(this.#catalog.update(id, productFields(req.valid('body'))));
  }

  async destroy(req: Request, res: Response): Promise<Response> {
    const id = Number(req.param('id'));
    if (!this.#catalog.delete(id)) throw productNotFound();
    await this.#images.delete(id);
    return res.status(204).send();
  }

  /** Validated before it runs: exactly one `image`, of an accepted type (`@param {file} image.formData`). */
  async storeImage(req: Request, res: Response): Promise<Response> {
    const id = Number(req.param('id'));
    if (this.#catalog.get(id) === undefined) throw productNotFound();
    const upload = req.file('image');
    if (upload === undefined) throw new ProductValidationError('Missing required fields: image', ['image']);
    const { size, mimetype, filename } = await this.#images.put(id, upload);
    return res.status(201).header('Location', `/api/products/${id}/image`).json({ size, mimetype, filename });
  }

  async showImage(req: Request, res: Response): Promise<Response> {
    const id = Number(req.param('id'));
    const image = this.#catalog.get(id) === undefined ? undefined : this.#images.get(id);
    if (image === undefined) throw new HttpError(404, 'No image for this product');
    // The type the upload declared (one of the accepted image types), never sniffed into something else.
    return res
      .header('Content-Type', image.mimetype)
      .header('X-Content-Type-Options', 'nosniff')
      .sendFile(image.path);
  }

  /** v1: id and name only; deprecated in favour of v2 (RFC 9745 `Deprecation`, successor `Link`). */
  usersV1(_req: Request, res: Response): Response {
    return res
      .header('Deprecation', 'true')
      .header('Link', '</api/v2/users>; rel="successor-version"')
      .json(USERS.map(({ id, name }) => ({ id, name })));
  }

  usersV2(_req: Request, res: Response): Response {
    return res.json(USERS);
  }
}

/** The fields a product has, out of a body that may carry others (its contract checked them). */
function productFields<T extends Partial<ProductInput>>(body: T): T {
  const out: Partial<ProductInput> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.description !== undefined) out.description = body.description;
  if (body.price !== undefined) out.price = body.price;
  if (body.categoryId !== undefined) out.categoryId = body.categoryId;
  if (body.tags !== undefined) out.tags = body.tags;
  return out as T;
}
