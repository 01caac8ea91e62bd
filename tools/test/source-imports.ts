/** What the workspace tests read of a source file: the packages its imports name. */

/** Bare specifiers of static imports and exports, `import()` and `require()` (relative ones left out). */
export function bareImports(source: string): string[] {
  return [...source.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|^import\s+)'([^'.][^']*)'/gm)].map((m) => m[1]);
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
export const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
