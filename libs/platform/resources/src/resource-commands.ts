import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import type { CollectionDocument, ListFilter, SingleDocument } from '@taproot/json-api';
import { topicOf, UnitOfWork, type DomainEvent, type EventActor } from '@taproot/messaging';
import { DataSource } from 'typeorm';
import type { ResourceDefinition, Row, WriteContext } from './resource-definition';
import { ResourceReader, type FlatQuery } from './resource-reader';
import { ResourceWriter, type Snapshot, type WriteResult } from './resource-writer';

/**
 * The generic commands of a declared resource. A resource with no rule beyond its declaration
 * needs no handler of its own; one with a real use case (resolve an incident) adds a command.
 */
export class CreateResourceCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly attributes: Row,
    /** The path's parent record, for a resource declared under one. */
    readonly parentId?: string,
    /** The acting user (integer id as text), null for a key without a user: `WriteContext.userId`. */
    readonly userId?: string | null,
  ) {}
}

export class UpdateResourceCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
    readonly attributes: Row,
  ) {}
}

export class DeleteResourceCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
  ) {}
}

export class ListResourcesQuery {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly query: FlatQuery,
    /** The path's parent record of a nested collection; omitted, the whole collection. */
    readonly parentId?: string,
    /** Conditions of the route on top of the client's filters (`ParentAccess.listScope`). */
    readonly scope: ListFilter[] = [],
  ) {}
}

export class GetResourceQuery {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly id: string,
  ) {}
}

const writers = new WeakMap<ResourceDefinition, ResourceWriter>();
function writerOf(definition: ResourceDefinition): ResourceWriter {
  let writer = writers.get(definition);
  if (!writer) writers.set(definition, (writer = new ResourceWriter(definition)));
  return writer;
}

/** What every write command names: the resource, and who writes in which organization. */
export interface ResourceWriteCommand {
  readonly definition: ResourceDefinition;
  readonly organizationId: string;
  readonly actor: EventActor;
  readonly userId?: string | null;
}

/** Queues a write's events for the outbox of the unit of work and answers its snapshot. */
export type Keep = (result: WriteResult) => Snapshot;

/**
 * Runs a command's writes, one or many, in one unit of work: one transaction with their read
 * models and outbox rows.
 */
@Injectable()
export abstract class ResourceWriteHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  protected write<T>(command: ResourceWriteCommand, work: (writer: ResourceWriter, ctx: WriteContext, keep: Keep) => Promise<T>): Promise<T> {
    const { definition, organizationId, actor, userId } = command;
    return this.unitOfWork.run(async (manager, emitter) => {
      // Events by topic, in the order kept: each context's projections read its own topic.
      const byTopic = new Map<string, DomainEvent[]>();
      const ctx: WriteContext = { organizationId, actor, userId, manager, now: this.clock.now() };
      const value = await work(writerOf(definition), ctx, (result) => {
        const topic = topicOf(result.context ?? definition.context);
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), ...result.events]);
        return result.snapshot;
      });
      for (const [topic, events] of byTopic) if (events.length) emitter.emit(topic, events);
      return value;
    });
  }
}

@CommandHandler(CreateResourceCommand)
export class CreateResourceHandler extends ResourceWriteHandler {
  execute(c: CreateResourceCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => keep(await writer.create(ctx, c.attributes, c.parentId)));
  }
}

@CommandHandler(UpdateResourceCommand)
export class UpdateResourceHandler extends ResourceWriteHandler {
  execute(c: UpdateResourceCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => keep(await writer.update(ctx, c.id, c.attributes)));
  }
}

@CommandHandler(DeleteResourceCommand)
export class DeleteResourceHandler extends ResourceWriteHandler {
  execute(c: DeleteResourceCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => keep(await writer.delete(ctx, c.id)));
  }
}

@Injectable()
abstract class ResourceQueryHandler {
  protected readonly reader: ResourceReader;
  constructor(dataSource: DataSource, @Inject(TAPROOT_CONFIG) config: TaprootConfig) {
    this.reader = new ResourceReader(dataSource, config.cursorSecret);
  }
}

@QueryHandler(ListResourcesQuery)
export class ListResourcesHandler extends ResourceQueryHandler {
  execute(q: ListResourcesQuery): Promise<CollectionDocument> {
    return this.reader.list(q.definition.schema, q.organizationId, q.query, q.parentId, q.scope);
  }
}

@QueryHandler(GetResourceQuery)
export class GetResourceHandler extends ResourceQueryHandler {
  execute(q: GetResourceQuery): Promise<SingleDocument> {
    return this.reader.get(q.definition.schema, q.organizationId, q.id);
  }
}
