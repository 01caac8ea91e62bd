import { afterAll, beforeAll } from '@jest/globals';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../../src/testing';
import { created, doc, type Attributes } from './json-api';

/** The API of a spec with two organizations: `org` the one acting, `other` the tenant it must not reach. */
export interface ApiWorld {
  api: TestApi;
  org: TestOrganization;
  other: TestOrganization;
  /** A request as `org` unless another token is given. */
  send(method: string, path: string, body?: unknown, token?: string): Promise<TestResponse>;
  /** A `type` record created at the collection `path` (a failure showing the answer unless it is a 201). */
  create(path: string, type: string, attributes: Attributes, token?: string): Promise<TestResponse['body']>;
}

/** Starts the API (`options` as startTestApi takes them) and makes its two organizations. */
export async function startApiWorld(options: Parameters<typeof startTestApi>[0] = {}): Promise<ApiWorld> {
  const api = await startTestApi(options);
  const [org, other] = [await api.newOrganization(), await api.newOrganization()];
  const send: ApiWorld['send'] = (method, path, body, token = org.token) => api.request(method, path, { token, body });
  return { api, org, other, send, create: async (path, type, attributes, token) => created(await send('POST', path, doc(type, attributes), token)) };
}

/**
 * The API world of a spec file or describe block: started before its tests, closed after them.
 * `send` and `create` may be taken from it at once; `api`, `org` and `other` are set when the tests run.
 */
export function useApiWorld(options: Parameters<typeof startTestApi>[0] = {}): ApiWorld {
  let started: ApiWorld | undefined;
  const world = {
    send: (method, path, body, token) => started!.send(method, path, body, token),
    create: (path, type, attributes, token) => started!.create(path, type, attributes, token),
  } as ApiWorld;
  beforeAll(async () => {
    started = await startApiWorld(options);
    Object.assign(world, { api: started.api, org: started.org, other: started.other });
  });
  afterAll(() => started?.api.close());
  return world;
}
