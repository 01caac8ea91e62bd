import { InProcessEventBus, ProjectionRunner, UnitOfWork } from '@taproot/messaging';
import type { DataSource } from 'typeorm';
import type { ResourceDefinition } from './resource-definition';
import { ResourceListProjection } from './resource-projection';

/** For tests of the write path without an app: a unit of work that writes these resources' read models inline, as their context module sets up. */
export function unitOfWorkWithReadModels(dataSource: DataSource, definitions: readonly ResourceDefinition[]): UnitOfWork {
  const projections = new ProjectionRunner(dataSource, new InProcessEventBus());
  for (const definition of definitions) projections.inline(new ResourceListProjection(definition));
  return new UnitOfWork(dataSource, null, projections);
}
