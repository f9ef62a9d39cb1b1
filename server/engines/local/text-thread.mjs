// The entry of a local text writer thread (text-pool.ts): loads the TypeScript thread through tsx, as
// `node --import tsx` loads the server (a worker thread's entry module does not get the parent's hooks).
import { tsImport } from 'tsx/esm/api';

await tsImport('./text-thread.ts', import.meta.url);
