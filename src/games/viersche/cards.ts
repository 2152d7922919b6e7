/** Viersche's cards (V-1 to V-3): the Alt-Kloei pack of the trick kernel (../trick/alt-kloei.ts). */
export * from '../trick/alt-kloei.js';
