/** The auth app alone (one Kubernetes Deployment). The api app migrates the schema. */
import 'reflect-metadata';
import { runProcess } from '@taproot/runtime';
import { startAuth } from './start-auth';

void runProcess({ migrations: [], apps: [startAuth] });
