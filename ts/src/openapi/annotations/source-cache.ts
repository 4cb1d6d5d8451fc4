/**
 * Source files read once per process: their lines and doc blocks, each block parsed at most once (so its
 * diagnostics are reported once however many routes look at it).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fs } from '../../builtins.js';
import { type DocBlock, findDocBlocks } from '../grammar/comments.js';
import { type ParsedBlock, parseBlock } from '../grammar/tags.js';

export interface SourceFile {
  file: string;
  lines: string[];
  blocks: DocBlock[];
}

const files = new Map<string, SourceFile | Error>();
const parsed = new Map<DocBlock, ParsedBlock>();

/** `file:///x.ts` → `/x.ts`; plain paths unchanged. */
export function toPath(file: string): string {
  return file.startsWith('file:') ? fileURLToPath(file) : file;
}

/** The file's lines and blocks, or the error that prevented reading it. */
export function sourceFile(file: string): SourceFile | Error {
  const path = toPath(file);
  let entry = files.get(path);
  if (entry === undefined) {
    try {
      const text = fs.readFileSync(path, 'utf8');
      entry = { file: path, lines: text.split(/\r?\n/), blocks: findDocBlocks(text) };
    } catch (error) {
      entry = error instanceof Error ? error : new Error(String(error));
    }
    files.set(path, entry);
  }
  return entry;
}

export function parsedBlock(source: SourceFile, block: DocBlock): ParsedBlock {
  let result = parsed.get(block);
  if (result === undefined) {
    result = parseBlock(block, source.file);
    parsed.set(block, result);
  }
  return result;
}

const SOURCE_EXTENSIONS = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/** Files under the given files or directories (recursively; `node_modules`, `dist` and dot-dirs skipped). */
export function expandSources(entries: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (path: string) => {
    let stat: ReturnType<typeof fs.statSync>;
    try {
      stat = fs.statSync(path);
    } catch {
      out.push(path); // reported as unreadable by the caller
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(path).sort()) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        const child = join(path, name);
        if (fs.statSync(child).isDirectory() || SOURCE_EXTENSIONS.test(name)) visit(child);
      }
    } else {
      out.push(path);
    }
  };
  for (const entry of entries) visit(toPath(entry));
  return out;
}

/** Forget every file read (tests; a watch mode after an edit). */
export function clearSourceCache(): void {
  files.clear();
  parsed.clear();
}
