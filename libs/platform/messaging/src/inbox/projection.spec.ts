import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventBus } from '../bus/event-bus.port';
import type { DomainEvent } from '../event-envelope';
import { ProjectionRunner, type Projection } from './projection';

describe('ProjectionRunner.inline', () => {
  test('a read model registered twice under one name (two apps of one process) is applied once per write', async () => {
    const runner = new ProjectionRunner({} as DataSource, {} as EventBus);
    const applied: string[] = [];
    const probe = (name: string): Projection => ({ name, topics: [], handles: () => true, apply: async (event) => void applied.push(`${name} ${event.type}`) });
    runner.inline(probe('endpoints'));
    runner.inline(probe('endpoints'));
    runner.inline(probe('secrets'));
    await runner.applyInline([{ type: 'thing.happened' } as DomainEvent], {} as EntityManager);
    assert.deepEqual(applied, ['endpoints thing.happened', 'secrets thing.happened']);
  });
});
