/**
 * What the load run sends to the reference server: a weighted mix of good and bad requests over thousands
 * of distinct paths, each with the set of statuses a correct server may answer. Every worker owns the
 * tasks and products it creates (and deletes them again), so the data set stays bounded (memory growth
 * means a leak, not more data) and no worker deletes what another one is reading.
 */
export interface PlannedRequest {
  kind: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  expect: readonly number[];
  /** Called with the parsed JSON of a 2xx answer (to learn generated ids). */
  onJson?: (body: unknown) => void;
}

/** xorshift32: small, fast, reproducible from a seed. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

export const TOKEN = process.env.API_TOKEN || 'demo-token';
const JSON_TYPE = { 'content-type': 'application/json' };
const AUTH = { ...JSON_TYPE, authorization: `Bearer ${TOKEN}` };
const MAX_OWNED = 5;
const BIG_BODY = Buffer.alloc(1024 * 1024 + 1024, 0x20);

/** One worker's view of the data it created. */
export class WorkerScenario {
  readonly #random: () => number;
  readonly #tasks: string[] = [];
  readonly #products: number[] = [];
  #serial = 0;

  constructor(seed: number) {
    this.#random = rng(seed);
  }

  #int(n: number): number {
    return Math.floor(this.#random() * n);
  }

  #hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.#int(0x100000000).toString(16);
    return out.slice(0, length);
  }

  #pick<T>(list: readonly T[]): T | undefined {
    return list[this.#int(list.length)];
  }

  next(): PlannedRequest {
    const roll = this.#int(1000);
    const task = this.#pick(this.#tasks);
    const product = this.#pick(this.#products);

    // Writes first, so each worker keeps a few tasks and products of its own to read.
    if (roll < 60 || task === undefined) {
      if (this.#tasks.length >= MAX_OWNED) {
        const id = this.#tasks.shift() as string;
        return { kind: 'DELETE /tasks/:id', method: 'DELETE', path: `/tasks/${id}`, expect: [204] };
      }
      return {
        kind: 'POST /tasks',
        method: 'POST',
        path: '/tasks',
        headers: JSON_TYPE,
        body: JSON.stringify({ title: `load ${++this.#serial} ${this.#hex(6)}` }),
        expect: [201],
        onJson: (body) => {
          const id = (body as { id?: unknown }).id;
          if (typeof id === 'string') this.#tasks.push(id);
        },
      };
    }
    if (roll < 90 || product === undefined) {
      if (this.#products.length >= MAX_OWNED) {
        const id = this.#products.shift() as number;
        return {
          kind: 'DELETE /api/products/:id',
          method: 'DELETE',
          path: `/api/products/${id}`,
          headers: AUTH,
          expect: [204],
        };
      }
      return {
        kind: 'POST /api/products',
        method: 'POST',
        path: '/api/products',
        headers: AUTH,
        body: JSON.stringify({
          name: `Load ${this.#hex(8)}`,
          price: 1 + this.#int(10_000) / 100,
          categoryId: 1 + this.#int(3),
        }),
        expect: [201],
        onJson: (body) => {
          const id = (body as { id?: unknown }).id;
          if (typeof id === 'number') this.#products.push(id);
        },
      };
    }
    if (roll < 250) return { kind: 'GET /tasks/:id', method: 'GET', path: `/tasks/${task}`, expect: [200] };
    if (roll < 300) {
      return {
        kind: 'PUT /tasks/:id',
        method: 'PUT',
        path: `/tasks/${task}`,
        headers: JSON_TYPE,
        body: JSON.stringify({ completed: this.#random() < 0.5 }),
        expect: [200],
      };
    }
    if (roll < 340) return { kind: 'GET /tasks', method: 'GET', path: '/tasks', expect: [200] };
    if (roll < 440) {
      // Thousands of distinct paths: ids nobody created.
      return {
        kind: 'GET /tasks/:unknown',
        method: 'GET',
        path: `/tasks/${this.#hex(8)}-${this.#hex(4)}`,
        expect: [404],
      };
    }
    if (roll < 560) {
      const query = new URLSearchParams({
        page: String(1 + this.#int(4)),
        limit: String(1 + this.#int(100)),
      });
      if (this.#random() < 0.3) query.set('search', this.#hex(2));
      if (this.#random() < 0.3) query.set('category', String(1 + this.#int(3)));
      return { kind: 'GET /api/products?…', method: 'GET', path: `/api/products?${query}`, expect: [200] };
    }
    if (roll < 640) {
      return {
        kind: 'GET /api/products/:id',
        method: 'GET',
        path: `/api/products/${1 + this.#int(40)}`,
        expect: [200, 404],
      };
    }
    if (roll < 660) {
      return {
        kind: 'PUT /api/products/:id',
        method: 'PUT',
        path: `/api/products/${product}`,
        headers: AUTH,
        body: '{"price":9.5}',
        expect: [200],
      };
    }
    if (roll < 700) {
      const version = this.#random() < 0.5 ? 'v1' : 'v2';
      return { kind: 'GET /api/v?/users', method: 'GET', path: `/api/${version}/users`, expect: [200] };
    }
    if (roll < 720) return { kind: 'GET /', method: 'GET', path: '/', expect: [200] };
    if (roll < 740) return { kind: 'HEAD /tasks', method: 'HEAD', path: '/tasks', expect: [200] };
    if (roll < 760) return { kind: 'OPTIONS /tasks', method: 'OPTIONS', path: '/tasks', expect: [200, 204] };
    // The bad requests.
    if (roll < 800) {
      return {
        kind: 'GET unknown path',
        method: 'GET',
        path: `/${this.#hex(5)}/${this.#hex(3)}/${this.#int(1000)}`,
        expect: [404],
      };
    }
    if (roll < 820) return { kind: 'PATCH /tasks (405)', method: 'PATCH', path: '/tasks', expect: [405] };
    if (roll < 840) {
      return {
        kind: 'POST /tasks malformed JSON',
        method: 'POST',
        path: '/tasks',
        headers: JSON_TYPE,
        body: '{"title":',
        expect: [400],
      };
    }
    if (roll < 860)
      return {
        kind: 'POST /tasks no title',
        method: 'POST',
        path: '/tasks',
        headers: JSON_TYPE,
        body: '{}',
        expect: [400],
      };
    if (roll < 880) {
      return {
        kind: 'POST /api/products no token',
        method: 'POST',
        path: '/api/products',
        headers: JSON_TYPE,
        body: '{}',
        expect: [401],
      };
    }
    if (roll < 900) {
      return {
        kind: 'POST /api/products invalid',
        method: 'POST',
        path: '/api/products',
        headers: AUTH,
        body: '{"price":-1}',
        expect: [400],
      };
    }
    if (roll < 920)
      return { kind: 'GET /api/products?page=0', method: 'GET', path: '/api/products?page=0', expect: [400] };
    if (roll < 940) {
      return {
        kind: 'GET /api/products/:not-int',
        method: 'GET',
        path: `/api/products/${this.#hex(4)}x`,
        expect: [404],
      };
    }
    if (roll < 960)
      return {
        kind: 'GET /tasks/%E0%A4%A (bad escape)',
        method: 'GET',
        path: '/tasks/%E0%A4%A',
        expect: [400],
      };
    if (roll < 980)
      return {
        kind: 'GET /tasks/a%2Fb',
        method: 'GET',
        path: `/tasks/${this.#hex(3)}%2F${this.#hex(3)}`,
        expect: [404],
      };
    if (roll < 995) {
      return {
        kind: 'GET URL too long (414)',
        method: 'GET',
        path: `/tasks/${'a'.repeat(9000)}`,
        expect: [414],
      };
    }
    return {
      kind: 'POST /tasks 1 MiB+ body (413)',
      method: 'POST',
      path: '/tasks',
      headers: JSON_TYPE,
      body: BIG_BODY,
      expect: [413],
    };
  }
}
