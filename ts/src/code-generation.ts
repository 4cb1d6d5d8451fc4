/**
 * Whether this runtime compiles code from strings. The router generates a few small functions at run time
 * (the front for small tables, the match builders) because V8 runs them faster than generic code, and ajv
 * compiles each JSON Schema to a function. Cloudflare Workers refuse both (`new Function` throws an
 * `EvalError`: "Code generation from strings disallowed"): there the router uses its generic code, which
 * answers the same, and a JSON Schema contract is refused with {@link CodeGenerationRefusedError}
 * (docs/RUNTIMES.md).
 */
let allowed: boolean | undefined;

/** True where `new Function` works; asked once per process. */
export function codeGenerationAllowed(): boolean {
  if (allowed === undefined) {
    try {
      allowed = typeof new Function('return 0') === 'function';
    } catch {
      allowed = false;
    }
  }
  return allowed;
}

/** A feature that compiles code at run time (ajv's JSON Schema validators) on a runtime that refuses it. */
export class CodeGenerationRefusedError extends Error {
  /** Stable code for programs: `CODE_GENERATION_REFUSED`. */
  readonly code = 'CODE_GENERATION_REFUSED';

  constructor(feature: string, instead: string) {
    super(
      `${feature} compiles code at run time, which this runtime refuses (Cloudflare Workers): ${instead} ` +
        '(docs/RUNTIMES.md)',
    );
    this.name = 'CodeGenerationRefusedError';
  }
}

/** Throws {@link CodeGenerationRefusedError} where code generation is refused. */
export function requireCodeGeneration(feature: string, instead: string): void {
  if (!codeGenerationAllowed()) throw new CodeGenerationRefusedError(feature, instead);
}
