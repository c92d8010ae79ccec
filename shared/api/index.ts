/**
 * One typed description of the admin API's answers (`/api/*`, docs/console-api.md, docs/users-and-roles.md),
 * shared by the server that sends them and the console that reads them (issue #33). One file per area; each type
 * names its route. Types only (audit.ts's list of actions is imported from its file): nothing here is bundled.
 */
export type * from './analytics';
export type * from './audit';
export type * from './experiments';
export type * from './funnels';
export type * from './guideHistory';
export type * from './guides';
export type * from './health';
export type * from './paths';
export type * from './range';
export type * from './recordings';
export type * from './retention';
export type * from './rules';
export type * from './segments';
export type * from './settings';
export type * from './users';
