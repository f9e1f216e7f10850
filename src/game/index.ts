export * from './cards.js';
export * from './errors.js';
export * from './rules.js';
export * from './deal.js';
export * from './state.js';
export * from './notation.js';
export * from './verify.js';
export * from './pysol.js';
