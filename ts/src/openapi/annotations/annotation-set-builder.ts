/**
 * The {@link AnnotationSet} under construction while `readAnnotations` places blocks on routes. Every block
 * that is looked at is taken in once: its diagnostics, `@schema` and `@tag` definitions count whether or
 * not its operation documents a route.
 */
import type { DocBlock } from '../grammar/comments.js';
import type { ParsedBlock } from '../grammar/tags.js';
import type {
  AnnotationSet,
  ComponentDocs,
  Diagnostic,
  OperationDoc,
  RegisteredRoute,
  SchemaDoc,
  TagDoc,
} from '../types.js';
import { resolveReferences } from './component-references.js';
import { parsedBlock, type SourceFile } from './source-cache.js';

/** `"GET /tasks/:id"`: the key of {@link AnnotationSet.operations}. */
export function operationKey(method: string, pattern: string): string {
  return `${method.toUpperCase()} ${pattern}`;
}

export class AnnotationSetBuilder {
  readonly operations: Record<string, OperationDoc> = {};
  readonly schemas: Record<string, SchemaDoc> = {};
  readonly tags: Record<string, TagDoc> = {};
  readonly components: ComponentDocs = { parameters: {}, responses: {}, requestBodies: {} };
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
      for (const kind of ['parameters', 'responses', 'requestBodies'] as const)
        for (const [name, definition] of Object.entries(parsed.components[kind]))
          this.#addComponent(kind, name, definition);
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
    const { schemas, tags, components, diagnostics } = this;
    // A block documenting several routes is one object: resolved once, shared again.
    const resolved = new Map<OperationDoc, OperationDoc>();
    const operations: Record<string, OperationDoc> = {};
    for (const [key, doc] of Object.entries(this.operations)) {
      let done = resolved.get(doc);
      if (done === undefined) {
        done = resolveReferences(doc, components, (d) => diagnostics.push(d));
        resolved.set(doc, done);
      }
      operations[key] = done;
    }
    const defined = Object.values(components).some((kind) => Object.keys(kind).length > 0);
    return { version: 1, operations, schemas, tags, ...(defined ? { components } : {}), diagnostics };
  }

  #addComponent<K extends keyof ComponentDocs>(
    kind: K,
    name: string,
    definition: ComponentDocs[K][string],
  ): void {
    const table = this.components[kind] as Record<string, ComponentDocs[K][string]>;
    const earlier = table[name];
    const shape = (d: ComponentDocs[K][string]) => JSON.stringify({ ...d, line: 0, file: '' });
    if (earlier !== undefined && shape(earlier) !== shape(definition)) {
      this.diagnostics.push({
        code: 'DUPLICATE_COMPONENT',
        file: definition.file,
        line: definition.line,
        message: `${definition.file}:${definition.line}: @component ${name} is already defined at ${earlier.file}:${earlier.line}`,
      });
    } else table[name] ??= definition;
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
