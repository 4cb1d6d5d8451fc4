/**
 * What the tag readers of one doc block share: where the block is, its free text, what its tags have
 * described so far, and the diagnostics they have reported. One reader per block, passed to each tag
 * reader in turn (the tags of a block are read in order: `@property` belongs to the last `@schema`).
 */

import type { ComponentDocs, Diagnostic, DiagnosticCode, OperationDoc, SchemaDoc, TagDoc } from '../types.js';
import type { RawTag } from './tag-lexer.js';

/** `@api VERB /path`: the route a block documents wherever it stands. */
export interface ApiLine {
  method: string;
  path: string;
  line: number;
}

export class BlockReader {
  readonly file: string;
  /** The free text before the first tag. */
  readonly leading: string;
  /** Filled by the operation tags; kept only if the block has one (or is only free text). */
  readonly operation: OperationDoc;
  api: ApiLine | null = null;
  readonly schemas: SchemaDoc[] = [];
  /** The schema that `@property`, `@description` and `@example` describe: the last `@schema` read. */
  schema: SchemaDoc | null = null;
  readonly tagDocs: TagDoc[] = [];
  /** `@component` definitions. */
  readonly components: ComponentDocs = { parameters: {}, responses: {}, requestBodies: {} };
  readonly diagnostics: Diagnostic[] = [];

  constructor(file: string, startLine: number, leading: string) {
    this.file = file;
    this.leading = leading;
    this.operation = {
      params: [],
      produces: [],
      responses: [],
      security: [],
      tags: [],
      deprecated: false,
      responseExamples: {},
      file,
      line: startLine,
    };
  }

  /** A mistake at `line`; the message is prefixed with `file:line` so it reads on its own in a warning. */
  report(code: DiagnosticCode, line: number, message: string): void {
    const { file } = this;
    this.diagnostics.push({ code, file, line, message: `${file}:${line}: ${message}` });
  }

  /**
   * A line of the operation's contract (a parameter, the body, a response) that could not be read, and so
   * is left out: reported, and kept on the operation so that validation refuses the route rather than
   * check it without the line (`unreadable`).
   */
  reportContractLine(code: DiagnosticCode, line: number, message: string): void {
    this.report(code, line, message);
    const operation = this.operation;
    operation.unreadable = [...(operation.unreadable ?? []), `${this.file}:${line}: ${message}`];
  }

  /** The JSON of an `@example`, or a reported `INVALID_EXAMPLE`. */
  parseJson(tag: RawTag, body: string): { ok: true; value: unknown } | { ok: false } {
    try {
      return { ok: true, value: JSON.parse(body) };
    } catch (error) {
      this.report('INVALID_EXAMPLE', tag.line, `@example is not valid JSON (${(error as Error).message})`);
      return { ok: false };
    }
  }
}
