import { Inject } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { hashToken, sameHash } from '@taproot/auth';
import { CLOCK, type Clock } from '@taproot/config';
import { isUuid, JsonApiError } from '@taproot/json-api';
import { UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler } from '@taproot/resources';
import { DataSource } from 'typeorm';
import type { AlertAccess } from '../../alerts/alert-writes';
import { AlertingError, AlertingErrorCode } from '../../errors';
import { PAGING_ACTOR } from '../../paging/fire-steps';
import { heartbeatDefinition } from '../heartbeat.schema';
import { pingHeartbeat, type PingChannel } from '../heartbeat-writes';
import { PingHeartbeatCommand, type PingCredential } from './ping-heartbeat.command';

/** Compared as digests: constant time whatever the lengths. */
const sameSecret = (given: string, secret: string) => sameHash(hashToken(given), hashToken(secret));

/** One answer for an unknown heartbeat and a wrong secret or address: a public route tells nothing of which. */
const unauthorized = () => new AlertingError(AlertingErrorCode.InvalidHeartbeatCredentials, 'no heartbeat answers to these credentials');

interface Pinged {
  access: AlertAccess;
  id: string;
  channel: PingChannel;
}

@CommandHandler(PingHeartbeatCommand)
export class PingHeartbeatHandler extends ResourceWriteHandler {
  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    private readonly dataSource: DataSource,
  ) {
    super(unitOfWork, clock);
  }

  async execute(c: PingHeartbeatCommand): Promise<void> {
    const { access, id, channel } = await this.pinged(c.credential);
    await this.write({ definition: heartbeatDefinition, organizationId: access.organizationId, actor: access.actor, userId: access.userId }, (writer, ctx, keep) =>
      pingHeartbeat(writer, ctx, keep, access, id, channel),
    );
  }

  /** The heartbeat the credential names and who pings it; a public credential that names none is a 401. */
  private async pinged(credential: PingCredential): Promise<Pinged> {
    if (credential.kind === 'caller') {
      if (!isUuid(credential.id)) throw JsonApiError.notFound('heartbeats', credential.id);
      return { access: credential.access, id: credential.id, channel: 'api' };
    }
    const system = (organizationId: string): AlertAccess => ({ organizationId, actor: PAGING_ACTOR, userId: null });
    if (credential.kind === 'secret') {
      if (!isUuid(credential.id) || !credential.secret) throw unauthorized();
      const [row] = (await this.dataSource.query('SELECT organization_id, secret FROM heartbeats WHERE id = $1', [credential.id])) as { organization_id: string; secret: string }[];
      if (!row || !sameSecret(credential.secret, row.secret)) throw unauthorized();
      return { access: system(row.organization_id), id: credential.id, channel: 'ping_url' };
    }
    const addresses = credential.recipients.map((a) => a.toLowerCase());
    const [row] = addresses.length
      ? ((await this.dataSource.query('SELECT id, organization_id FROM heartbeats WHERE lower(email_address) = ANY($1) LIMIT 1', [addresses])) as { id: string; organization_id: string }[])
      : [];
    if (!row) throw unauthorized();
    return { access: system(row.organization_id), id: row.id, channel: 'email' };
  }
}
