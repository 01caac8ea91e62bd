import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthenticationModule } from '@taproot/auth';
import { CONTEXT_ERRORS, CONTEXT_TOPICS, CONTEXTS, registerEventContracts } from '@taproot/contexts';
import { IdempotencyInterceptor, RESOURCE_HANDLERS } from '@taproot/resources';
import { LOGGER, PlatformModule, type Runtime } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { JsonApiExceptionFilter } from './http/json-api-exception.filter';
import { OpenApiController } from './http/openapi.controller';

/** The /v1 API: the platform, authentication, and every bounded context's module (their descriptors). */
@Module({})
export class ApiModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    registerEventContracts();
    return {
      module: ApiModule,
      imports: [PlatformModule.forRuntime(runtime, CONTEXT_TOPICS), CqrsModule.forRoot(), AuthenticationModule, ...CONTEXTS.map((context) => context.module)],
      controllers: [OpenApiController],
      providers: [
        ...RESOURCE_HANDLERS,
        { provide: APP_FILTER, useFactory: (logger) => new JsonApiExceptionFilter(logger, CONTEXT_ERRORS), inject: [LOGGER] },
        // After the guards: a key is scoped by the caller (start-api stores the answers).
        { provide: APP_INTERCEPTOR, useFactory: (ds: DataSource) => new IdempotencyInterceptor(ds), inject: [DataSource] },
      ],
    };
  }
}
