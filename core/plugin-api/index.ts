/**
 * The public plugin API, `#plugin-api`: the only module a plugin imports
 * from core. Two halves: the contract (what a plugin declares and what core
 * hands it) and the kit (helpers beside it).
 */
export * from './contract.ts';
export * from './kit.ts';
