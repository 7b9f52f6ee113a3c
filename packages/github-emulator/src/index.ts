/** Public entry of the Writ GitHub emulator. */
export { startEmulator, EmulatorServer } from './server.js';
export type { Emulator, EmulatorOptions, Exchange } from './server.js';
export { Admin, AdminError } from './admin.js';
export type { FaultInput, RepoSpec, TokenSpec } from './admin.js';
export { githubSchema } from './graphql.js';
export { World } from './state.js';
export type {
  ContractWorld,
  FaultSpec,
  RecordedEvent,
  RequestLogEntry,
  Role,
  Ruleset,
  WorldOptions,
} from './state.js';
export type { SecondaryLimits, SecondaryLimitsInput } from './secondary-limit-settings.js';
export { CONTRACT_WORLDS } from './state.js';
export { CrashPoints, requestTo } from './crash-points.js';
export type { RequestMatch } from './crash-points.js';
