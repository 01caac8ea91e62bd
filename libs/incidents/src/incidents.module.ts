import { Module } from '@nestjs/common';

/** The incidents bounded context; its resources arrive in later issues. */
@Module({})
export class IncidentsModule {}
