/** The workflow engine (DESIGN §10): definitions, flow state, commands, events, invariants. */
export * from './authority';
export * from './changes';
export * from './days';
export * from './engine';
export * from './invariants';
export * from './names';
export * from './statuses';
export * from './types';
