// SHA-256 as the front ends give it to core (the `Sha256` port of core/run/changesFile.ts):
// node:crypto, hex.
import { createHash } from 'node:crypto';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
