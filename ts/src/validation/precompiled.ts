/**
 * Contracts compiled ahead of time: the module `arbor contracts:export` writes holds the annotations the
 * routes were documented with and every JSON Schema check of the application as plain functions (ajv's
 * standalone code), so that an application given it (`new Application({ contracts })`) reads no source
 * file and generates no code at run time — what Cloudflare Workers need, where the sources are not
 * deployed and `new Function` is refused (docs/RUNTIMES.md).
 *
 * Each function is found by its schema: the kind of check and the SHA-256 of the schema's JSON. A route
 * whose schema is not in the module (it changed since the export) is a `CONTRACTS_STALE` error naming the
 * route, at start where the application compiles its routes, else on that route's requests as a 500:
 * never a request let through unchecked.
 */
import type { ValidateFunction } from 'ajv';
import { crypto, lazyPackage } from '../builtins.js';
import { RouteError } from '../errors.js';
import type { JsonSchema } from '../openapi/grammar/type-expr.js';
import type { AnnotationSet } from '../openapi/types.js';
import type { SchemaKind, ValidatorSource } from './validators.js';

/** The format of the module's default export; another format is refused, with how to export again. */
export const CONTRACTS_FORMAT = 1;

/** What the packages of ajv's standalone code are: the helpers its functions call. */
export const STANDALONE_PACKAGES = [
  'ajv/dist/runtime/equal',
  'ajv/dist/runtime/ucs2length',
  'ajv/dist/runtime/uri',
  'ajv/dist/runtime/validation_error',
  'ajv-formats/dist/formats',
] as const;

/**
 * The default export of the module `arbor contracts:export` writes. Give it to the application as it
 * is: `import contracts from './arbor.contracts.js'; new Application({ validate: true, contracts })`.
 */
export interface CompiledContracts {
  /** The module's format (1); another is refused, with how to export again. */
  format: number;
  /** The Arbor version that wrote it (for people: the format decides what is read). */
  arbor: string;
  /** The routes' annotations (what the OpenAPI document and the validation read instead of the sources). */
  annotations: AnnotationSet;
  /** For each function `validators` returns, by its name there: its kind and the SHA-256 of its schema's JSON. */
  schemas: Record<string, string>;
  /** The functions, built once; `require` answers the few ajv and ajv-formats helpers their code calls. */
  validators(require: (specifier: string) => unknown): Record<string, ValidateFunction>;
}

/** The key a schema's function is found by: its kind and the SHA-256 of its JSON, base64url. */
export function schemaKey(kind: SchemaKind, schema: JsonSchema): string {
  return `${kind}:${crypto().createHash('sha256').update(JSON.stringify(schema)).digest('base64url')}`;
}

const packages = new Map(STANDALONE_PACKAGES.map((name) => [name, lazyPackage<unknown>(name)]));

/** The helpers ajv's standalone code requires, and nothing else. */
function standaloneRequire(specifier: string): unknown {
  const load = packages.get(specifier as (typeof STANDALONE_PACKAGES)[number]);
  if (load === undefined)
    throw new Error(`the compiled contracts require ${specifier}, which Arbor does not provide`);
  return load();
}

/** The functions of a {@link CompiledContracts}, found by their schemas. */
export class PrecompiledValidators implements ValidatorSource {
  readonly #contracts: CompiledContracts;
  #byKey: Map<string, ValidateFunction> | null = null;

  constructor(contracts: CompiledContracts) {
    checkContracts(contracts);
    this.#contracts = contracts;
  }

  validator(kind: SchemaKind, schema: JsonSchema, route: string): ValidateFunction {
    const found = this.#functions().get(schemaKey(kind, schema));
    if (found === undefined)
      throw new RouteError(
        'CONTRACTS_STALE',
        `route ${route}: its contract is not among the compiled contracts given to the application ` +
          '(`contracts`): the routes or their annotations changed since they were exported. ' +
          'Run `arbor contracts:export` again (and `--check` it in CI)',
        { pattern: route.slice(route.indexOf(' ') + 1) },
      );
    return found;
  }

  #functions(): Map<string, ValidateFunction> {
    if (this.#byKey === null) {
      const functions = this.#contracts.validators(standaloneRequire);
      this.#byKey = new Map();
      for (const [name, key] of Object.entries(this.#contracts.schemas)) {
        const validate = functions[name];
        if (validate !== undefined) this.#byKey.set(key, validate);
      }
    }
    return this.#byKey;
  }
}

/** Refuses what is not a module of this format, saying how to write it again. */
export function checkContracts(contracts: CompiledContracts): void {
  const again = 'export them again with `arbor contracts:export`';
  if (contracts === null || typeof contracts !== 'object' || typeof contracts.validators !== 'function')
    throw new RouteError(
      'CONTRACTS_INVALID',
      `\`contracts\` is not the default export of a module \`arbor contracts:export\` wrote: ${again}`,
    );
  // The format, not the version, decides: the version is read from the package's files, which a Worker
  // does not have. A schema built differently by another version is not found, and so refused by route.
  if (contracts.format !== CONTRACTS_FORMAT)
    throw new RouteError(
      'CONTRACTS_STALE',
      `the compiled contracts are of format ${contracts.format} (written by Arbor ${contracts.arbor}); ` +
        `this Arbor reads format ${CONTRACTS_FORMAT}: ${again}`,
    );
}
