export * from './cursor';
export * from './list-query';
export * from './list-sql';
export * from './pagination';
export * from './list-document';
export * from './records';
export * from './virtual-filters';
export * from './includes';
