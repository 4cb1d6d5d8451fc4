/**
 * The {@link AnnotationSet} under construction while `readAnnotations` places blocks on routes. Every block
 * that is looked at is taken in once: its diagnostics, `@schema` and `@tag` definitions count whether or
 * not its operation documents a route.
 */
import type { DocBlock } from '../grammar/comments.js';
import type { ParsedBlock } from '../grammar/tags.js';
import type {
  AnnotationSet,
  Diagnostic,
  OperationDoc,
  RegisteredRoute,
  SchemaDoc,
  TagDoc,
} from '../types.js';
import { parsedBlock, type SourceFile } from './source-cache.js';

/** `"GET /tasks/:id"`: the key of {@link AnnotationSet.operations}. */
export function operationKey(method: string, pattern: string): string {
  return `${method.toUpperCase()} ${pattern}`;
}

export class AnnotationSetBuilder {
  readonly operations: Record<string, OperationDoc> = {};
  readonly schemas: Record<string, SchemaDoc> = {};
  readonly tags: Record<string, TagDoc> = {};
  readonly diagnostics: Diagnostic[] = [];
  /** Blocks already taken in (a block above a resource call is looked at once per route). */
  readonly #seen = new Set<ParsedBlock>();

  /** The block, parsed; the first time it is seen, its diagnostics, schemas and tags are added. */
  blockDoc(source: SourceFile, block: DocBlock): ParsedBlock {
    const parsed = parsedBlock(source, block);
    if (!this.#seen.has(parsed)) {
      this.#seen.add(parsed);
      this.diagnostics.push(...parsed.diagnostics);
      for (const schema of parsed.schemas) this.#addSchema(schema);
      for (const tag of parsed.tags) this.#addTag(tag);
    }
    return parsed;
  }

  /** Documents the route's `methods` with `doc` (replacing what an earlier step placed). */
  assign(route: RegisteredRoute, methods: readonly string[], doc: OperationDoc): void {
    for (const method of methods) this.operations[operationKey(method, route.pattern)] = doc;
  }

  isDocumented(route: RegisteredRoute, method: string): boolean {
    return this.operations[operationKey(method, route.pattern)] !== undefined;
  }

  build(): AnnotationSet {
    const { operations, schemas, tags, diagnostics } = this;
    return { version: 1, operations, schemas, tags, diagnostics };
  }

  #addSchema(schema: SchemaDoc): void {
    const earlier = this.schemas[schema.name];
    // Two applications mounted together may each define the same schema: only a different
    // definition under the same name is a mistake.
    if (earlier && !sameSchema(earlier, schema)) {
      this.diagnostics.push({
        code: 'DUPLICATE_SCHEMA',
        file: schema.file,
        line: schema.line,
        message: `${schema.file}:${schema.line}: @schema ${schema.name} is already defined at ${earlier.file}:${earlier.line}`,
      });
    } else this.schemas[schema.name] ??= schema;
  }

  #addTag(tag: TagDoc): void {
    const earlier = this.tags[tag.name];
    if (earlier && earlier.description !== tag.description) {
      this.diagnostics.push({
        code: 'DUPLICATE_TAG',
        file: tag.file,
        line: tag.line,
        message: `${tag.file}:${tag.line}: @tag ${tag.name} is already described at ${earlier.file}:${earlier.line}`,
      });
    } else this.tags[tag.name] ??= tag;
  }
}

/** Whether two `@schema` blocks define the same thing (wherever they stand). */
function sameSchema(a: SchemaDoc, b: SchemaDoc): boolean {
  const shape = (schema: SchemaDoc) =>
    JSON.stringify([
      schema.description ?? null,
      schema.example ?? null,
      schema.properties.map((p) => [p.name, p.type, p.description, p.required]),
    ]);
  return shape(a) === shape(b);
}
