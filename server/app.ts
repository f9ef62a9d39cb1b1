import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { messageKeyOf } from '../common/message-keys.ts';
import { MESSAGES } from '../common/messages.ts';
import type { AppContext } from './context.ts';
import { accountRoutes } from './features/account/routes.ts';
import { adminRoutes } from './features/admin/routes.ts';
import { assetRoutes } from './features/assets/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { campaignRoutes } from './features/campaigns/routes.ts';
import { canvasImageRoutes } from './features/canvas-images/routes.ts';
import { characterRoutes } from './features/characters/routes.ts';
import { chatRoutes } from './features/chat/routes.ts';
import { devMailRoutes } from './features/dev-mail/routes.ts';
import { directoryRoutes } from './features/directory/routes.ts';
import { editorSessionRoutes } from './features/editor-sessions/routes.ts';
import { engineRoutes } from './features/engines/routes.ts';
import { filmRoutes } from './features/film/routes.ts';
import { generationRoutes } from './features/generation/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { inpaintRoutes } from './features/inpaint/routes.ts';
import { mediaRoutes } from './features/media/routes.ts';
import { multiReferenceRoutes } from './features/multi-reference/routes.ts';
import { createPayments } from './features/payments/create-payments.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { payoutRoutes } from './features/payouts/routes.ts';
import { personaRoutes } from './features/personas/routes.ts';
import { securityRoutes } from './features/security/routes.ts';
import { sequenceRoutes } from './features/sequences/routes.ts';
import { socialRoutes } from './features/social/routes.ts';
import { taskRoutes } from './features/tasks/routes.ts';
import { remoteUploadRoutes } from './features/uploads/remote-routes.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { upscaleRoutes } from './features/upscale/routes.ts';
import { walletRoutes } from './features/wallet/routes.ts';
import { workspaceRoutes } from './features/workspace/routes.ts';
import { authenticateRequest, startSessionCache } from './platform/auth/session.ts';
import { AppError } from './platform/errors.ts';
import { BODY_LIMITS, formatBodyLimit } from './platform/http/body-limits.ts';
import { withInputGuard } from './platform/http/input-guard.ts';
import { registerProxyHeaderWatch } from './platform/http/proxy-headers.ts';
import { parseQueryString } from './platform/http/query-string.ts';
import { RateLimitCounters, rateLimitStore } from './platform/http/rate-limit-store.ts';
import { registerRequestContext, requestIdOf } from './platform/http/request-context.ts';
import { lazyChildLoggerFactory } from './platform/http/request-logger.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { registerMetrics } from './platform/metrics/http.ts';
import { STORAGE_RETRY_AFTER_SECONDS, StorageUnavailableError } from './platform/storage/unavailable.ts';

export type App = FastifyInstance;
const WEB_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'dist');

/** The Fastify instance with plugins and every feature's routes. Does not listen. */
export async function buildApp(ctx: AppContext): Promise<App> {
  const app = Fastify({
    loggerInstance: ctx.log,
    trustProxy: trustProxyOption(ctx.config.TRUST_PROXY ?? false),
    bodyLimit: BODY_LIMITS.default,
    genReqId: requestIdOf,
    routerOptions: { querystringParser: parseQueryString },
    childLoggerFactory: lazyChildLoggerFactory,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(withInputGuard(validatorCompiler));
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    limits: { fileSize: ctx.config.UPLOAD_MAX_MB * 1024 * 1024, files: 10, fields: 20 },
  });
  // Every limit counts in one store for the cluster (the database's rate_limits table; memory on PGlite).
  await app.register(fastifyRateLimit, {
    global: false,
    store: rateLimitStore(new RateLimitCounters({ pool: ctx.database.pgPool }, ctx.log)),
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', MESSAGES.generic.rateLimited, {
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'GenPro Studio API', version: '0.1.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.decorateRequest('auth', null);
  app.decorateRequest('receivedAt', 0);
  registerRequestContext(app);
  registerProxyHeaderWatch(app, ctx);
  registerMetrics(app, ctx.metrics, ctx.config.METRICS_TOKEN);
  const stopSessionCache = await startSessionCache(ctx);
  app.addHook('onClose', stopSessionCache);
  // A callback hook: most requests find their session cached and need no promise at all.
  app.addHook('onRequest', (request, _reply, done) => {
    let pending: Promise<void> | undefined;
    try {
      pending = authenticateRequest(request, ctx.db, ctx.clock);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  const { htmlCsp } = registerSecurityHeaders(app, {
    indexHtml: path.join(WEB_DIST, 'index.html'),
    mediaOrigin: new URL(ctx.config.publicUrl).origin,
  });

  await app.register(healthRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(accountRoutes(ctx));
  await app.register(securityRoutes(ctx));
  await app.register(mediaRoutes(ctx));
  await app.register(uploadRoutes(ctx));
  await app.register(taskRoutes(ctx));
  await app.register(generationRoutes(ctx));
  await app.register(engineRoutes(ctx));
  await app.register(assetRoutes(ctx));
  await app.register(remoteUploadRoutes(ctx));
  await app.register(upscaleRoutes(ctx));
  await app.register(sequenceRoutes(ctx));
  await app.register(canvasImageRoutes(ctx));
  await app.register(editorSessionRoutes(ctx));
  await app.register(characterRoutes(ctx));
  await app.register(multiReferenceRoutes(ctx));
  await app.register(inpaintRoutes(ctx));
  await app.register(filmRoutes(ctx));
  await app.register(chatRoutes(ctx));
  // One payment provider for the credit, subscription and wallet top-ups.
  const payments = createPayments(ctx.config);
  await app.register(paymentRoutes(ctx, payments));
  await app.register(walletRoutes(ctx, payments));
  await app.register(personaRoutes(ctx));
  await app.register(workspaceRoutes(ctx));
  await app.register(campaignRoutes(ctx));
  await app.register(directoryRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(payoutRoutes(ctx));
  await app.register(socialRoutes(ctx));
  if (ctx.config.embedded.mail && !ctx.config.production) await app.register(devMailRoutes(ctx));

  await registerWeb(app, { root: WEB_DIST, htmlCsp });
  return app;
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes proxy-addr's trust function. */
function trustProxyOption(value: boolean | number | string[]) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

/** Paths the server answers itself: never the web app's page, so a route that is off answers 404. */
const SERVER_PREFIXES = ['/api/', '/dev/', '/checkout/', '/social/sandbox/'];

/**
 * The built web app: hashed assets cached for good, the rest revalidated. Headers that depend on the file
 * are set here, where a 304 gets them too: its reply has no content type, and a page revalidated without
 * its HTML policy would take the API's `sandbox` policy into the browser's cache (a blank app on reload).
 */
export async function registerWeb(app: FastifyInstance, web: { root: string; htmlCsp: string }): Promise<void> {
  const hasWeb = existsSync(path.join(web.root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: web.root,
      wildcard: false,
      // The build writes a brotli and a gzip copy beside each asset (vite.config.ts): sent to a browser that takes
      // them, the app's first load is a quarter of the bytes, which is most of its time on a slow network.
      preCompressed: true,
      setHeaders: (res, sentPath) => {
        const filePath = sentPath.replace(/\.(br|gz)$/, '');
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        if (filePath.endsWith('.html')) res.header('content-security-policy', web.htmlCsp);
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const serverOwned = request.url === '/api' || SERVER_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (serverOwned || request.method !== 'GET') {
      return reply.code(404).send(errorBody(MESSAGES.generic.notFound, 'not_found'));
    }
    if (!hasWeb) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built yet. Run `npm run build:web` (npm start does this for you).');
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}

/**
 * The studio's error envelope. A catalogue message also carries its key and values (`messageKey`,
 * `messageParams`), so the web translates it by code rather than by its English text.
 */
function errorBody(error: string, code: string, details?: unknown) {
  const keyed = messageKeyOf(error);
  return {
    success: false as const,
    error,
    code,
    ...(details === undefined ? {} : { details }),
    ...(keyed ? { messageKey: keyed.key, ...(keyed.params ? { messageParams: keyed.params } : {}) } : {}),
  };
}

/** Undecodable URLs and over-long path params answer in the studio's envelope like every other error. */
function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const code = error.code === 'FST_ERR_BAD_URL' ? 'bad_url' : 'bad_request';
  return reply.code(error.statusCode ?? 400).send(errorBody(MESSAGES.generic.validation, code));
}

function errorHandler(
  this: FastifyInstance,
  error: FastifyError,
  request: import('fastify').FastifyRequest,
  reply: import('fastify').FastifyReply,
) {
  if (error instanceof StorageUnavailableError) {
    // The media routes set their caching headers before reading: an outage's answer must not be cached as the file.
    request.log.warn({ err: error.cause, url: request.url }, 'media storage unavailable');
    for (const name of ['etag', 'last-modified', 'content-disposition', 'accept-ranges']) reply.removeHeader(name);
    return reply
      .code(503)
      .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
      .header('cache-control', 'no-store')
      .send(errorBody(error.message, error.code));
  }
  if (error instanceof AppError) {
    if (error.status === 429) {
      const retry = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
      if (retry) reply.header('retry-after', String(retry));
    }
    return reply.code(error.status).send(errorBody(error.message, error.code, error.details));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      if (!fieldErrors[field]) fieldErrors[field] = [];
      fieldErrors[field].push(issue.message ?? 'Invalid value');
    }
    const first = Object.values(fieldErrors)[0]?.[0];
    return reply.code(400).send(errorBody(first ?? MESSAGES.generic.validation, 'validation', { fieldErrors }));
  }
  // A service re-parsing user input with a stricter schema (a canvas call made into a generation request):
  // the input is what is wrong, so it is a 400 naming the field, not a 500.
  if (error instanceof ZodError) {
    const first = error.issues[0];
    const field = first?.path.join('.') || '_';
    request.log.warn({ field, issue: first?.code }, 'input refused by a service schema');
    const message = first?.message ?? MESSAGES.generic.validation;
    return reply.code(400).send(errorBody(message, 'validation', { fieldErrors: { [field]: [message] } }));
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
    return reply.code(500).send(errorBody(MESSAGES.generic.internal, 'internal'));
  }
  // busboy's parse errors (no boundary, a body cut short) carry no status: the form is broken, not the server.
  if (error.statusCode === undefined && /multipart/i.test(error.message)) {
    return reply.code(400).send(errorBody(MESSAGES.upload.malformedForm, 'bad_multipart'));
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(MESSAGES.generic.internal, 'internal'));
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = formatBodyLimit(request.routeOptions.bodyLimit ?? BODY_LIMITS.default);
    return reply.code(413).send(errorBody(MESSAGES.generic.bodyTooLarge(limit), 'body_too_large'));
  }
  if (error.code === 'FST_REQ_FILE_TOO_LARGE' || status === 413) {
    return reply.code(413).send(errorBody(error.message, 'too_large'));
  }
  return reply.code(status).send(errorBody(error.message, error.code ?? 'bad_request'));
}
