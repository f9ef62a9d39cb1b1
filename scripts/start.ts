import { ensureWebBuilt } from './web-build.ts';

// `npm start`: build the web app if its sources changed, then run the whole studio in this process.
await ensureWebBuilt();
await import('../server/main.ts');
