import type { Type } from '@nestjs/common';
import type { ErrorTable, ResourceSchema } from '@taproot/json-api';
import type { EarlyRequestHandler } from './start-nest-app';

/** OpenAPI beyond what the declared resources generate (operations, extra schemas). */
export interface OpenApiFragment {
  schemas?: Record<string, unknown>;
  paths?: Record<string, unknown>;
}

/** A context's public routes that take more than `application/vnd.api+json`. */
export interface InboundMediaTypes {
  /** Whether the route of `url` takes a body of `mediaType` besides JSON:API. */
  accepts(url: string, mediaType: string | undefined): boolean;
  /** Media types parsed as JSON, like `application/json`, on its routes (SCIM's `application/scim+json`). */
  json?: string[];
  /** Media types kept as raw bytes (an HMAC covers them, or a mapper parses them), with their body limit. */
  raw?: { mediaTypes: string[]; bodyLimit: number };
  /** Routes whose successful answers are plain `application/json` (the reference's shapes). */
  plainJson?: RegExp;
}

/**
 * What a bounded context gives the apps (architecture rule 5b): the apps iterate descriptors and
 * hold no context-specific code. Its events go to `topicOf(name)`.
 */
export interface ContextDescriptor {
  name: string;
  module: Type<unknown>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's migration classes
  migrations: Function[];
  /** Its declared resources, in the order the OpenAPI document lists them. */
  resources: readonly ResourceSchema[];
  openapi?: OpenApiFragment;
  inbound?: InboundMediaTypes;
  /** Registers the payload contracts of the events it publishes (checked where they enter from Kafka). */
  registerEventContracts?(): void;
  /** Its module's providers that may answer a request before the api's hooks and Nest (startNestApp's `earlyHandlers`). */
  earlyRequestHandlers?: Type<EarlyRequestHandler>[];
  /** How the exception filter answers each code of the context's error enum. */
  errors?: ErrorTable<string>;
}
