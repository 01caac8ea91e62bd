import { startNestApp, type RunningApp, type Runtime } from '@taproot/runtime';
import { DispatcherModule } from './dispatcher.module';

/** The dispatcher serves only its health probe; its work is delivering webhooks (docs/webhook-delivery.md). */
export function startDispatcher(runtime: Runtime, port = runtime.config.dispatcherPort): Promise<RunningApp> {
  return startNestApp(runtime, DispatcherModule.forRuntime(runtime), { name: 'webhook-dispatcher', port });
}
