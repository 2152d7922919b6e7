/** Hindersche's cards (H-1: as in Viersche): the Alt-Kloei pack of the trick kernel (../trick/alt-kloei.ts). */
export * from '../trick/alt-kloei.js';
