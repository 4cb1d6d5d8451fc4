/**
 * The applications whose documents the tests validate and snapshot: the three reference apps (when their
 * modules exist: `ts/examples/<name>/app.ts`, exporting a `create…App()` factory) and the stand-in.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DocumentSource } from '../../ts/src/openapi/index.js';

export interface Subject {
  name: string;
  /** Null when the module is not there yet (the test is skipped with that reason). */
  load: (() => Promise<DocumentSource>) | null;
}

const security = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  basicAuth: { type: 'http', scheme: 'basic' },
};
export const SECURITY = security;

function referenceApp(name: 'tasks' | 'products' | 'articles'): Subject {
  const url = new URL(`../../ts/examples/${name}/app.ts`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) return { name, load: null };
  return {
    name,
    load: async () => {
      const module = (await import(/* @vite-ignore */ url.href)) as Record<string, unknown>;
      const factory = Object.entries(module).find(
        ([key, value]) => /^create\w*App$/.test(key) && typeof value === 'function',
      );
      if (!factory) throw new Error(`ts/examples/${name}/app.ts exports no create…App() factory`);
      return (factory[1] as () => DocumentSource)();
    },
  };
}

export function subjects(): Subject[] {
  return [
    referenceApp('tasks'),
    referenceApp('products'),
    referenceApp('articles'),
    {
      name: 'mini-products',
      load: async () => (await import('./fixtures/mini-products.js')).createMiniProductsApp(),
    },
  ];
}
