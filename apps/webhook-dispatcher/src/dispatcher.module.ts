import { Module, type DynamicModule } from '@nestjs/common';
import { CONTEXT_TOPICS, registerEventContracts } from '@taproot/contexts';
import { PlatformModule, type Runtime } from '@taproot/runtime';
import { WebhookDeliveryModule } from '@taproot/webhooks';
import { WebhookFanOutConsumer } from './webhook-fan-out.consumer';

@Module({})
export class DispatcherModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    // Events from Kafka are checked against their contexts' contracts before the dispatcher sees them.
    registerEventContracts();
    return {
      module: DispatcherModule,
      imports: [PlatformModule.forRuntime(runtime, CONTEXT_TOPICS), WebhookDeliveryModule],
      providers: [WebhookFanOutConsumer],
    };
  }
}
