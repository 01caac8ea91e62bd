import { afterEach, beforeAll, jest } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { TXT_RESOLVER, type TxtResolver } from '@taproot/status-pages';
import type { TestApi, TestResponse } from '../../src/testing';
import type { ApiWorld } from './api-world';
import { unique, type Attributes } from './json-api';

/** A status page of the organization (`org`'s unless another token is given), titled uniquely unless `attributes` say. */
export const newStatusPage = (w: ApiWorld, attributes: Attributes = {}, token?: string): Promise<TestResponse['body']> =>
  w.create('/v1/status-pages', 'status_pages', { title: unique('Acme status'), ...attributes }, token);

/**
 * The DNS TXT records the API's resolver finds, by name, in place of the real DNS: any other name
 * does not exist (ENOTFOUND). Emptied after each test. Call after `useApiWorld`, whose API it needs.
 */
export function useFakeTxtRecords(w: ApiWorld): Map<string, string[][]> {
  const records = new Map<string, string[][]>();
  beforeAll(() => {
    const resolver = w.api.app.get<symbol, TxtResolver>(TXT_RESOLVER, { strict: false });
    jest.spyOn(resolver, 'resolveTxt').mockImplementation(async (name) => {
      const found = records.get(name);
      if (found) return found;
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    });
  });
  afterEach(() => records.clear());
  return records;
}

/** A GET with a Host header of its own (fetch keeps the connection's): a custom domain's request. */
export const getOnHost = (api: TestApi, host: string, path = '/'): Promise<TestResponse> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(api.url);
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: new Headers(res.headers as Record<string, string>), body: text }));
    });
    req.on('error', reject).end();
  });
