import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type Runtime } from '@taproot/runtime';
import { DomainEventLogConsumer } from './domain-event-log.consumer';

@Controller()
class DispatcherHealthController {
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }
}

@Module({})
export class DispatcherModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: DispatcherModule,
      imports: [PlatformModule.forRuntime(runtime)],
      controllers: [DispatcherHealthController],
      providers: [DomainEventLogConsumer],
    };
  }
}
