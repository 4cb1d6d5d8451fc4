/** In-memory product catalogue of the products reference application. */

export interface Product {
  id: number;
  name: string;
  description: string;
  /** USD, greater than 0. */
  price: number;
  categoryId: number;
  tags: string[];
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

export type ProductInput = Pick<Product, 'name' | 'price' | 'categoryId'> &
  Partial<Pick<Product, 'description' | 'tags'>>;

/** Category ids and the names `?category=` also accepts. */
export const CATEGORIES: Readonly<Record<number, string>> = { 1: 'electronics', 2: 'books', 3: 'home' };

const SEED: ProductInput[] = [
  {
    name: 'Mechanical keyboard',
    description: 'Tactile switches, USB-C',
    price: 89.9,
    categoryId: 1,
    tags: ['input'],
  },
  {
    name: 'Noise-cancelling headphones',
    description: 'Over-ear, 30 h battery',
    price: 199,
    categoryId: 1,
    tags: [],
  },
  {
    name: 'The Rust Programming Language',
    description: 'The book',
    price: 39.95,
    categoryId: 2,
    tags: ['rust'],
  },
  {
    name: 'Designing Data-Intensive Applications',
    description: 'Kleppmann',
    price: 45.5,
    categoryId: 2,
    tags: [],
  },
  { name: 'Desk lamp', description: 'Warm LED light', price: 24, categoryId: 3, tags: ['light'] },
];

export interface ListQuery {
  page: number;
  limit: number;
  category?: string;
  search?: string;
}

export class Catalog {
  readonly #products = new Map<number, Product>();
  readonly #now: () => Date;
  #nextId = 1;

  constructor(options: { seed?: boolean; now?: () => Date } = {}) {
    this.#now = options.now ?? (() => new Date());
    if (options.seed !== false) for (const input of SEED) this.create(input);
  }

  list({ page, limit, category, search }: ListQuery): {
    data: Product[];
    total: number;
    page: number;
    limit: number;
  } {
    let items = [...this.#products.values()];
    if (category !== undefined && category !== '') {
      const wanted = category.toLowerCase();
      items = items.filter((p) => String(p.categoryId) === wanted || CATEGORIES[p.categoryId] === wanted);
    }
    if (search !== undefined && search !== '') {
      const needle = search.toLowerCase();
      items = items.filter(
        (p) => p.name.toLowerCase().includes(needle) || p.description.toLowerCase().includes(needle),
      );
    }
    const start = (page - 1) * limit;
    return { data: items.slice(start, start + limit), total: items.length, page, limit };
  }

  get(id: number): Product | undefined {
    return this.#products.get(id);
  }

  create(input: ProductInput): Product {
    const now = this.#now().toISOString();
    const product: Product = {
      id: this.#nextId++,
      name: input.name,
      description: input.description ?? '',
      price: input.price,
      categoryId: input.categoryId,
      tags: input.tags ?? [],
      createdAt: now,
      updatedAt: now,
    };
    this.#products.set(product.id, product);
    return product;
  }

  update(id: number, changes: Partial<ProductInput>): Product | undefined {
    const product = this.#products.get(id);
    if (product === undefined) return undefined;
    const updated = {
      ...product,
      ...changes,
      id,
      createdAt: product.createdAt,
      updatedAt: this.#now().toISOString(),
    };
    this.#products.set(id, updated);
    return updated;
  }

  delete(id: number): boolean {
    return this.#products.delete(id);
  }
}
