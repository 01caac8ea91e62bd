import { Module, type DynamicModule } from '@nestjs/common';
import { HealthController, PlatformModule, type Runtime } from '@taproot/runtime';
import { DomainEventLogConsumer } from './domain-event-log.consumer';

@Module({})
export class DispatcherModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: DispatcherModule,
      imports: [PlatformModule.forRuntime(runtime)],
      controllers: [HealthController],
      providers: [DomainEventLogConsumer],
    };
  }
}
