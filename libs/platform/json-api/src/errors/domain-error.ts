/** How the exception filter answers a code: its HTTP status and the error's title. */
export interface ErrorKind {
  status: number;
  title: string;
}

/** How attribute-level refusals are answered (`JsonApiError.invalidAttributes` writes them, one error per attribute). */
export const INVALID_ATTRIBUTE: ErrorKind = { status: 422, title: 'Invalid attribute' };

/** A context's codes and how each is answered: a Record, so a code without an answer does not compile. */
export type ErrorTable<C extends string> = Readonly<Record<C, ErrorKind>>;

/**
 * A context's refusal (architecture rule 8): a code of the context's enum and what the client
 * should know. Status and title come from the context's error table, which the one exception
 * filter reads (contexts give it through their descriptors).
 */
export class DomainError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    readonly detail: string,
    /** The JSON:API pointer of the attribute the refusal is about, when there is one. */
    readonly pointer?: string,
  ) {
    super(detail);
    this.name = 'DomainError';
  }
}

/**
 * The error tables of several contexts as one. A code two contexts share must be answered alike,
 * or the merge throws: the filter could not tell which answer a code means.
 */
export function mergeErrorTables(tables: readonly ErrorTable<string>[]): ErrorTable<string> {
  const merged: Record<string, ErrorKind> = {};
  for (const table of tables) {
    for (const [code, kind] of Object.entries(table)) {
      const known = merged[code];
      if (known && (known.status !== kind.status || known.title !== kind.title)) {
        throw new Error(`error code ${code} is answered ${known.status} "${known.title}" by one context and ${kind.status} "${kind.title}" by another`);
      }
      merged[code] = kind;
    }
  }
  return merged;
}
