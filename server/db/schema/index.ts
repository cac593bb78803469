export * from './files.ts';
export * from './users.ts';
export * from './labs.ts';
export * from './close-groups.ts';
export * from './letters.ts';
export * from './repositories.ts';
export * from './activity.ts';
