import type { TestApi } from '../../src/testing';

export interface Route {
  path: string;
  methods: string[];
}

/** Parses Fastify's `printRoutes({ commonPrefix: false })`: one segment per line, 4 columns per depth. */
function parseRouteTree(tree: string): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line.trimEnd());
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    if (m[3]) routes.push({ path: stack.join(''), methods: m[3].split(',').map((s) => s.trim()) });
  }
  return routes;
}

/** Every route the running app serves, from the router itself (not a hand-written list). */
export function servedRoutes(api: TestApi): Route[] {
  return parseRouteTree(api.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }));
}
