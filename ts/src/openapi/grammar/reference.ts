/**
 * `#Name`: a reference to a `@component` (`@param #Limit`, `@body #NewTask`, `@response 404 #NotFound`),
 * read by the tag that uses it and replaced by the component once every block is read.
 */

const REFERENCE = /^#([A-Za-z_][\w.-]*)$/;

/** The component `text` names (`#Limit` → `Limit`), or `null` when it is not a reference. */
export function componentReference(text: string): string | null {
  return REFERENCE.exec(text.trim())?.[1] ?? null;
}

/** A placeholder's fields apart from `ref` and `line`: empty, since the component supplies them. */
export const PLACEHOLDER = { type: '', description: '' } as const;
