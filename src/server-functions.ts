// The map of server functions the sidebars call through google.script.run (typed for gas-client). Each feature's
// endpoints module is listed once; main.ts exposes the same functions as globals.
import type * as accountEndpoints from './account/endpoints';

export type ServerFunctions = typeof accountEndpoints;
