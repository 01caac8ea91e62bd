/**
 * The OpenAPI document split by operation (spec, Versioning): each operation as a standalone
 * document holding its path item with only that method and the components it references,
 * directly or through other components. Generators and reviewers can take one endpoint at a time.
 */

interface OpenApiLike {
  paths: Record<string, Record<string, unknown>>;
  components?: object;
}

/** A document of one operation: the source's other members as they are. */
export type OperationDocument<D extends OpenApiLike> = Omit<D, 'paths' | 'components'> & {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
};

export interface OperationEntry {
  operation_id: string;
  method: string;
  path: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/** Every operation of the document, in document order. */
export function listOperations(document: OpenApiLike): OperationEntry[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, op]) => METHODS.has(method) && typeof (op as { operationId?: unknown }).operationId === 'string')
      .map(([method, op]) => ({ operation_id: (op as { operationId: string }).operationId, method: method.toUpperCase(), path })),
  );
}

/** The `$ref`s of `value`, at any depth. */
function refsOf(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsOf(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') into.add(child);
      else refsOf(child, into);
    }
  }
}

/** One operation as a standalone document, or null when no operation has that id. */
export function operationDocument<D extends OpenApiLike>(document: D, operationId: string): OperationDocument<D> | null {
  const entry = listOperations(document).find((o) => o.operation_id === operationId);
  if (!entry) return null;
  const method = entry.method.toLowerCase();
  const { [method]: operation, ...shared } = document.paths[entry.path];
  // Path-level members (shared parameters, summary) stay; the other methods go.
  const pathItem = Object.fromEntries([...Object.entries(shared).filter(([key]) => !METHODS.has(key)), [method, operation]]);
  // Security schemes are named by `security`, never by `$ref`: they all stay.
  const source = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const schemes = source.securitySchemes;
  const components: Record<string, Record<string, unknown>> = schemes ? { securitySchemes: schemes } : {};
  const pending = new Set<string>();
  refsOf(pathItem, pending);
  const seen = new Set<string>();
  for (const ref of pending) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const match = REF.exec(ref);
    const target = match && source[match[1]]?.[match[2]];
    if (!match || target === undefined) continue;
    (components[match[1]] ??= {})[match[2]] = target;
    // A Set iterates what is added while it is iterated: the closure is complete at the end.
    refsOf(target, pending);
  }
  const { paths: _paths, components: _components, ...rest } = document;
  return { ...rest, paths: { [entry.path]: pathItem }, ...(Object.keys(components).length ? { components } : {}) };
}
