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

type Router = ReturnType<ReturnType<TestApi['app']['getHttpAdapter']>['getInstance']>;

/**
 * A tree node that routes with different parameter names share prints them all
 * (`/v1/incident_roles/:id|:incident_role_id`); the router knows which name is the route's own.
 */
function ownParameterNames(router: Router, method: string, printed: string): string {
  const probe = printed.replace(/:(\w+)(?:\|:\w+)+/g, ':$1');
  const found = router.findRoute({ method: method as 'GET', url: probe });
  if (!found) throw new Error(`the router has no ${method} ${probe}`);
  const names = Object.keys(found.params);
  let i = 0;
  return probe.replace(/:\w+/g, () => `:${names[i++]}`);
}

/** Every route the running app serves, from the router itself (not a hand-written list). */
export function servedRoutes(api: TestApi): Route[] {
  const router = api.app.getHttpAdapter().getInstance();
  const methodsByPath = new Map<string, string[]>();
  for (const { path, methods } of parseRouteTree(router.printRoutes({ commonPrefix: false }))) {
    for (const method of methods) {
      const own = path.includes('|') ? ownParameterNames(router, method, path) : path;
      methodsByPath.set(own, [...(methodsByPath.get(own) ?? []), method]);
    }
  }
  return [...methodsByPath].map(([path, methods]) => ({ path, methods }));
}
