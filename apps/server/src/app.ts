import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import type { AppDeps, AppEnv } from './platform/context';
import { badRequest, payloadTooLarge } from './platform/errors';
import { errorHandler, notFoundHandler, requestLogger } from './platform/http';
import { limits } from './platform/limits';
import { describeIssues } from './platform/params';
import { consoleStatic } from './platform/static';
import { systemRoutes } from './system/routes';

export type { AppDeps } from './platform/context';

/** Builds the whole service from its dependencies. No globals: tests build as many as they like. */
export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw badRequest(describeIssues(result.error), { issues: result.error.issues });
    },
  });
  app.use(requestLogger(deps));
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    }),
  );
  app.onError(errorHandler(deps));
  app.notFound(notFoundHandler);

  // Ordinary routes take bodies up to 1 MiB; upload routes mount their own larger limits before this.
  const ordinaryBody = bodyLimit({
    maxSize: limits.bodyBytes,
    onError: () => {
      throw payloadTooLarge(`The request body is larger than the limit of ${limits.bodyBytes} bytes.`);
    },
  });
  app.use('/v3/*', ordinaryBody);
  app.use('/console-api/*', ordinaryBody);

  app.route('/', systemRoutes());

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'SVC customer data platform API',
      version: '0.1.0',
      description:
        'REST API compatible with the Treasure Data v3 family. Authenticate with `Authorization: SVC1 <API key>`.',
    },
    servers: [{ url: '/' }],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'SVC1', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The word SVC1 (any case), a space and the API key: `SVC1 1/0123…`.',
  });

  if (deps.config.consoleDir) app.use('*', consoleStatic(deps.config.consoleDir));
  return app;
}

export type App = ReturnType<typeof createApp>;
