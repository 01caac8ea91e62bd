import { parseScope, SCOPE_RESOURCES } from '@taproot/auth';

/** A scope as the consent page shows it: a plain sentence, and what a meta scope includes. */
export interface ScopeDescription {
  scope: string;
  description: string;
  /** Meta scopes only: the granular permissions they stand for (spec: expanded on the consent screen). */
  includes: string[];
}

const AREAS: Record<string, string> = { ir: 'incident response', oc: 'on-call', ai: 'AI' };

const IDENTITY: Record<string, string> = {
  openid: 'Confirm who you are (your user id)',
  profile: 'See your name, team and roles',
  email: 'See your e-mail address',
};

/** `ir.incident_types` → "incident response: incident types". */
function resourceLabel(resource: string): string {
  const [area, name] = resource.split('.');
  return `${AREAS[area]}: ${name.replace(/_/g, ' ')}`;
}

function readWrite(resource: string): string {
  return `Read and change ${resourceLabel(resource)}`;
}

/** `all` covers every resource, AI included; `ir.all` and `oc.all` their own area without AI. */
function metaResources(scope: string): string[] {
  const area = scope === 'all' ? null : scope.split('.')[0];
  return Object.keys(SCOPE_RESOURCES).filter((r) => (area === null ? true : r.startsWith(`${area}.`)));
}

const META: Record<string, string> = {
  all: 'Read and change all incident response and on-call data, and use AI chat',
  'ir.all': 'Read and change all incident response data (not AI chat)',
  'oc.all': 'Read and change all on-call data (not AI chat)',
};

export function describeScope(scope: string): ScopeDescription {
  const parsed = parseScope(scope);
  switch (parsed.kind) {
    case 'openid':
      return { scope, description: IDENTITY[scope], includes: [] };
    case 'meta':
      return { scope, description: META[scope], includes: metaResources(scope).map(readWrite) };
    case 'resource':
      return {
        scope,
        description: parsed.access === 'write' ? readWrite(parsed.resource) : `Read ${resourceLabel(parsed.resource)}`,
        includes: [],
      };
    default:
      // The provider only lets registered, supported scopes through; shown as is just in case.
      return { scope, description: scope, includes: [] };
  }
}
