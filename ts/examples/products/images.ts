/**
 * Product images of the products reference application: each product's one image, its bytes in a folder
 * (moved there from the upload's temporary file, never copied through memory), what the client said of it
 * in memory.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UploadedFile } from '../../src/app/index.js';

/** What the API says of a stored image (`@schema ProductImage`), and where its bytes are. */
export interface ProductImage {
  /** Bytes. */
  size: number;
  /** The type the client declared (the route accepts PNG, JPEG, GIF and WebP only). */
  mimetype: string;
  /** The name the client gave it: shown, never used as a path. */
  filename: string;
  /** Where the bytes are. */
  path: string;
}

export class ImageStore {
  readonly #images = new Map<number, ProductImage>();
  readonly #dir: string | undefined;
  #folder: Promise<string> | undefined;

  /** `dir`: where the images go (made if missing); default a folder of its own under the temporary directory. */
  constructor(dir?: string) {
    this.#dir = dir;
  }

  get(id: number): ProductImage | undefined {
    return this.#images.get(id);
  }

  /** Keeps `file` (the upload's temporary file is moved) as product `id`'s image, in place of the one it had. */
  async put(id: number, file: UploadedFile): Promise<ProductImage> {
    const folder = await this.#ensureFolder();
    // A new name per upload: a GET still streaming the previous image keeps reading its own file.
    const path = join(folder, `${id}-${randomUUID()}`);
    await move(file.path, path);
    const image = { size: file.size, mimetype: file.mimetype, filename: file.filename, path };
    const previous = this.#images.get(id);
    this.#images.set(id, image);
    if (previous !== undefined) await rm(previous.path, { force: true });
    return image;
  }

  /** Forgets product `id`'s image and deletes its bytes (nothing when it has none). */
  async delete(id: number): Promise<void> {
    const image = this.#images.get(id);
    if (image === undefined) return;
    this.#images.delete(id);
    await rm(image.path, { force: true });
  }

  #ensureFolder(): Promise<string> {
    const dir = this.#dir;
    this.#folder ??=
      dir === undefined
        ? mkdtemp(join(tmpdir(), 'arbor-product-images-'))
        : mkdir(dir, { recursive: true }).then(() => dir);
    return this.#folder;
  }
}

/** `rename`, or a copy and a delete when the upload folder is on another file system (`EXDEV`). */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
