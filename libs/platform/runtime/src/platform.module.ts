import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG } from '@taproot/config';
import { EVENT_BUS, EVENT_TOPICS, OutboxRelay, ProjectionRunner, UnitOfWork } from '@taproot/messaging';
import { DataSource } from 'typeorm';
import type { Runtime } from './runtime';

export const LOGGER = Symbol('LOGGER');
/** The runtime's `Mailer | null` (Runtime.mailer). */
export const MAILER = Symbol('MAILER');

/**
 * Makes the process's shared runtime injectable in every module of an app, with the topics of
 * the contexts the app runs (`EVENT_TOPICS`).
 */
@Global()
@Module({})
export class PlatformModule {
  static forRuntime(runtime: Runtime, eventTopics: readonly string[] = []): DynamicModule {
    const providers = [
      { provide: EVENT_TOPICS, useValue: eventTopics },
      { provide: TAPROOT_CONFIG, useValue: runtime.config },
      { provide: LOGGER, useValue: runtime.logger },
      { provide: CLOCK, useValue: runtime.clock },
      { provide: MAILER, useValue: runtime.mailer },
      { provide: DataSource, useValue: runtime.dataSource },
      { provide: EVENT_BUS, useValue: runtime.bus },
      { provide: OutboxRelay, useValue: runtime.relay },
      { provide: ProjectionRunner, useValue: runtime.projections },
      { provide: UnitOfWork, useValue: runtime.unitOfWork },
    ];
    return { module: PlatformModule, providers, exports: providers.map((p) => p.provide) };
  }
}
