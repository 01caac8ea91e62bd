import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';

/** The throwaway server `npm test` starts; its database is migrated once by the runner. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through `npm test`');
  return url;
}

/**
 * A private copy of the migrated test database (CREATE DATABASE ... TEMPLATE, a file copy).
 * Each test file gets its own, because an outbox relay publishes every pending row of its
 * database: two files sharing one would consume each other's events.
 */
export async function createScratchDatabase(): Promise<string> {
  const base = new URL(testDatabaseUrl());
  const template = base.pathname.slice(1);
  const name = `scratch_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  base.pathname = '/postgres';
  const admin = new Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (error) {
        // Two copies of one template cannot start at the same instant; wait and retry.
        if (attempt >= 50 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  base.pathname = `/${name}`;
  return base.toString();
}

export async function openTestDataSource(url?: string): Promise<DataSource> {
  const ds = createDataSource({ url: url ?? (await createScratchDatabase()), entities: [], migrations: [], poolSize: 4 });
  return ds.initialize();
}
