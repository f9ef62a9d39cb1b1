import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/** pino's standard levels (the studio defines no custom ones). */
const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

function enabled(logger: FastifyBaseLogger, level: string): boolean {
  return (LEVEL_VALUES[level] ?? 0) >= (LEVEL_VALUES[logger.level] ?? 0);
}

/**
 * `request.log` that builds its pino child (bindings serialized, redaction compiled) only when something is
 * logged at an enabled level. Fastify makes one child per request; at warn level almost none ever logs, and
 * making the child was a measurable share of an API call.
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private log(level: Level, args: LogArgs): void {
    if (this.made || enabled(this.parent, level)) (this.logger[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: LogArgs): void {
    this.log('fatal', args);
  }

  error(...args: LogArgs): void {
    this.log('error', args);
  }

  warn(...args: LogArgs): void {
    this.log('warn', args);
  }

  info(...args: LogArgs): void {
    this.log('info', args);
  }

  debug(...args: LogArgs): void {
    this.log('debug', args);
  }

  trace(...args: LogArgs): void {
    this.log('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: a lazy child, or pino's own when the route sets its own log level. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) =>
  options.level
    ? logger.child(bindings, options)
    : (new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger);
