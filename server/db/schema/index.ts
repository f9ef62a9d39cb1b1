export * from './assets.ts';
export * from './credits.ts';
export * from './editor.ts';
export * from './mail.ts';
export * from './media.ts';
export * from './tasks.ts';
export * from './users.ts';
