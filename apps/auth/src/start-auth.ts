import { startNestApp, type RunningApp, type Runtime } from '@taproot/runtime';
import { AuthModule } from './auth.module';

/** The auth app listens on its own origin (spec: {auth_url} is a different host). */
export function startAuth(runtime: Runtime, port = runtime.config.authPort): Promise<RunningApp> {
  return startNestApp(runtime, AuthModule.forRuntime(runtime), { name: 'auth', port });
}
