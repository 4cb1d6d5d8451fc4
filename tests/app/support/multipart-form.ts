/** Multipart bodies written by hand, for exact sizes and malformed variants (fetch's FormData hides both). */

/** One part: a plain field, or a file when it has a `filename`. */
export interface FormPart {
  name: string;
  filename?: string;
  type?: string;
  content: string | Uint8Array;
}

/** The boundary {@link multipart} uses unless told another. */
export const BOUNDARY = 'arbor-boundary';
/** The Content-Type of a body written by {@link multipart} with the default boundary. */
export const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** `parts` as a multipart/form-data body, closed by its final boundary. */
export function multipart(parts: FormPart[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type !== undefined) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** `size` bytes of `fill`. */
export const bytes = (size: number, fill = 0x61) => new Uint8Array(size).fill(fill);
