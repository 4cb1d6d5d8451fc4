/** The articles application's data: articles by slug and their comments, in memory, bounded. */

export interface Author {
  name: string;
}

export interface Article {
  slug: string;
  title: string;
  body: string;
  tags: string[];
  author: Author;
  createdAt: string;
}

export interface Comment {
  id: number;
  body: string;
  author: Author;
  createdAt: string;
}

/** At most this many articles, and comments per article: a demo open to the network stays small. */
export const CAPACITY = 500;

export class ArticleStore {
  readonly #articles = new Map<string, Article>();
  readonly #comments = new Map<string, Comment[]>();
  #nextComment = 1;

  get full(): boolean {
    return this.#articles.size >= CAPACITY;
  }

  list(options: { tag?: string; limit: number; offset: number }): { articles: Article[]; count: number } {
    const all = [...this.#articles.values()].filter(
      (a) => options.tag === undefined || a.tags.includes(options.tag),
    );
    return { articles: all.slice(options.offset, options.offset + options.limit), count: all.length };
  }

  get(slug: string): Article | undefined {
    return this.#articles.get(slug);
  }

  /** A new article, its slug made from the title (and a number when taken). */
  create(input: { title: string; body: string; tags?: string[] }, author: Author): Article {
    const base = slugOf(input.title);
    let slug = base;
    for (let n = 2; this.#articles.has(slug); n++) slug = `${base}-${n}`;
    const article: Article = {
      slug,
      title: input.title,
      body: input.body,
      tags: [...new Set(input.tags ?? [])],
      author,
      createdAt: new Date().toISOString(),
    };
    this.#articles.set(slug, article);
    this.#comments.set(slug, []);
    return article;
  }

  delete(slug: string): void {
    this.#articles.delete(slug);
    this.#comments.delete(slug);
  }

  comments(slug: string): Comment[] {
    return this.#comments.get(slug) ?? [];
  }

  /** A new comment, or `null` when the article has as many as it may. */
  comment(slug: string, body: string, author: Author): Comment | null {
    const list = this.#comments.get(slug);
    if (list === undefined || list.length >= CAPACITY) return null;
    const comment = { id: this.#nextComment++, body, author, createdAt: new Date().toISOString() };
    list.push(comment);
    return comment;
  }

  findComment(id: number): Comment | undefined {
    for (const list of this.#comments.values()) {
      const found = list.find((c) => c.id === id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  tags(): string[] {
    return [...new Set([...this.#articles.values()].flatMap((a) => a.tags))].sort();
  }
}

/** `"Hello, World!"` → `hello-world`; a title with no letter or digit gets `article`. */
function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'article' : slug;
}
