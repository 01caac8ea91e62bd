/** The api app alone (one Kubernetes Deployment): it owns the schema, so it migrates. */
import 'reflect-metadata';
import { runProcess } from '@taproot/runtime';
import { ALL_MIGRATIONS } from './migrations';
import { startApi } from './start-api';

void runProcess({ migrations: ALL_MIGRATIONS, apps: [startApi] });
