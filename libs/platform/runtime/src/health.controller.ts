import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { Public } from '@taproot/auth';
import { EVENT_BUS, type EventBus } from '@taproot/messaging';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';

/** Probes for orchestrators: no token, plain JSON. */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
  ) {}

  /** The process is up. */
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  /** The database and the bus are reachable: the process can serve. */
  @Get('readyz')
  @HttpCode(200)
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    const [database, bus] = await Promise.all([
      this.dataSource.query('SELECT 1').then(() => true, () => false),
      this.bus.ping(),
    ]);
    const ready = database && bus;
    void reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'unavailable', checks: { database: database ? 'up' : 'down', bus: bus ? 'up' : 'down' } };
  }
}
