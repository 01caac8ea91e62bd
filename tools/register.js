// Runs TypeScript sources directly (SWC keeps decorator metadata, which NestJS DI needs)
// and resolves the workspace aliases of tsconfig.base.json.
process.env.SWC_NODE_PROJECT ??= require('node:path').join(__dirname, '..', 'tsconfig.base.json');
require('@swc-node/register');
