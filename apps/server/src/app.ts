import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { accountConsoleRoutes } from './accounts/consoleRoutes';
import { accountRoutes } from './accounts/routes';
import { audienceRoutes } from './audiences/routes';
import { auditRoutes } from './audit';
import { bulkImportRoutes, bulkImportUploadRoutes } from './bulk-import/routes';
import { bulkLoadRoutes } from './bulk-loads/routes';
import { bulkLoadRunRoutes } from './bulk-loads/runRoutes';
import { type AppOptions, composeApp } from './compose';
import { databaseRoutes } from './data/databaseRoutes';
import { tableChangeRoutes } from './data/tableChangeRoutes';
import { tableRoutes } from './data/tableRoutes';
import { reconcileCatalog } from './data/tableStore';
import { demoRoutes } from './demo';
import { dwhRoutes } from './dwh';
import { folderPermissionRoutes } from './folder-permissions';
import { findFolder } from './folders/lookup';
import { folderRoutes } from './folders/routes';
import { tableImportRoutes } from './ingest/importRoutes';
import { postbackRoutes } from './ingest/postbackRoutes';
import { mountRecordsApi } from './ingest/recordsRoutes';
import { invitationRoutes } from './invitations';
import { jobRoutes } from './jobs/routes';
import { journeyEngineRoutes } from './journey-engine/routes';
import { activationRoutes } from './journeys/activationRoutes';
import { journeyRoutes } from './journeys/routes';
import { overviewRoutes } from './overview/routes';
import type { AppDeps, AppEnv } from './platform/context';
import { badRequest, payloadTooLarge } from './platform/errors';
import {
  closeOnRefusal,
  errorHandler,
  noStoreWhenAuthenticated,
  notFoundHandler,
  requestLogger,
} from './platform/http';
import { limits } from './platform/limits';
import { documentNotFound } from './platform/openapi';
import { describeIssues } from './platform/params';
import { routePath } from './platform/routePath';
import { consoleStatic } from './platform/static';
import { utf8Bodies } from './platform/utf8';
import { atStartup, startupDone } from './platform/work';
import { referenceRoutes } from './reference/routes';
import { resultRoutes } from './results/routes';
import { savedQueryRoutes } from './saved-queries';
import { scheduleRoutes } from './schedules';
import { credentialRoutes } from './session/credentialRoutes';
import { consoleCsrfGuard } from './session/csrf';
import { SESSION_PATHS, sessionPrincipal } from './session/principal';
import { consoleRoutes } from './session/routes';
import { rotateOnPrivilegeChange } from './session/sessions';
import { ssoDomainRoutes } from './sso/domainRoutes';
import { ssoRoutes } from './sso/routes';
import { samlRoutes } from './sso/samlRoutes';
import { ssoProven } from './sso/userSso';
import { healthRoutes } from './system/health';
import { mountNotOffered } from './system/notOffered';
import { systemRoutes } from './system/routes';

export type { AppOptions } from './compose';
export type { AppDeps } from './platform/context';

/** Builds the whole service from its dependencies. No globals: tests build as many as they like. */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  // Every service, built once in compose.ts (the composition root) and handed to the routes below.
  const root = composeApp(deps, options);
  const { workers, jobs, schedules, bulkLoads, journeyEngine } = root;
  const app = new OpenAPIHono<AppEnv>({
    getPath: routePath,
    defaultHook: (result) => {
      if (!result.success) throw badRequest(describeIssues(result.error), { issues: result.error.issues });
    },
  });
  app.use(requestLogger(deps));
  app.use(closeOnRefusal());
  app.use(noStoreWhenAuthenticated());
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        frameSrc: ["'none'"],
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
  // The console uploads import parts with its session: a raw body, so only the console header guards it.
  app.use('/v3/bulk_import/upload_part/*', sessionPrincipal(deps, { rawBody: true }));
  app.route('/', bulkImportUploadRoutes(deps));
  app.route('/', tableImportRoutes(deps));
  // Once per path: `/audiences/*` also matches `/audiences`, and a second limit after utf8Bodies read the body
  // would find its stream taken.
  for (const path of ['/v3/*', '/v1/*', '/entities/*', '/audiences/*', '/console-api/*']) {
    app.use(path, ordinaryBody, utf8Bodies());
  }
  app.use('/console-api/*', consoleCsrfGuard());
  for (const path of SESSION_PATHS) app.use(path, sessionPrincipal(deps));

  app.route('/', systemRoutes());
  app.route('/', healthRoutes(deps));
  mountNotOffered(app, deps);
  // accounts/ cannot import sso/ or session/ (they import it): their answers are handed in here.
  app.route('/', accountRoutes(deps, ssoProven));
  app.route('/', consoleRoutes(deps));
  app.route('/', credentialRoutes(deps));
  app.route(
    '/',
    accountConsoleRoutes(deps, {
      ssoProven,
      privilegeChanged: (c, user) => rotateOnPrivilegeChange(deps, c, user),
    }),
  );
  app.route('/', invitationRoutes(deps));
  app.route('/', auditRoutes(deps));
  atStartup(deps, reconcileCatalog(deps));
  app.route('/', databaseRoutes(deps));
  app.route('/', tableRoutes(deps));
  app.route('/', tableChangeRoutes(deps));
  app.route('/', postbackRoutes(deps));
  app.route('/', resultRoutes(deps));
  app.route('/', bulkLoadRoutes(deps));
  app.route('/', ssoRoutes(deps));
  app.route('/', ssoDomainRoutes(deps));
  app.route('/', samlRoutes(deps));
  app.route('/', jobRoutes(deps, jobs));
  app.route('/', bulkImportRoutes(deps, jobs));
  app.route('/', audienceRoutes(deps, jobs));
  app.route('/', scheduleRoutes(deps, jobs));
  app.route('/', savedQueryRoutes(deps, jobs));
  app.route('/', folderRoutes(deps));
  app.route('/', bulkLoadRunRoutes(deps, bulkLoads));
  app.route('/', dwhRoutes(deps, bulkLoads, options.dwh));
  app.route('/', journeyRoutes(deps));
  app.route('/', activationRoutes(deps));
  app.route('/', journeyEngineRoutes(deps));
  app.route('/', overviewRoutes(deps));
  app.route('/', folderPermissionRoutes(deps, findFolder));
  app.route(
    '/',
    demoRoutes(deps, { request: (path, init) => app.request(path, init), services: { jobs, journeyEngine } }),
  );

  app.get('/openapi.json', (c) =>
    c.json(
      documentNotFound(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: {
            title: 'SVC customer data platform API',
            version: '0.1.0',
            description:
              'REST API compatible with the Treasure Data v3 family. Authenticate with `Authorization: SVC1 <API key>`. Every error answers `{error, message, text, severity, status_code}` (`/v1` too); a 404 exactly those five.',
          },
          servers: [{ url: '/' }],
        }),
      ),
    ),
  );
  app.openAPIRegistry.registerComponent('securitySchemes', 'SVC1', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The word SVC1 (any case; TD1 is an alias), a space and the API key: `SVC1 1/0123…`.',
  });

  app.route(
    '/',
    referenceRoutes(async () => (await app.request('/openapi.json')).json()),
  );

  // Last of the API routes: the records API matches two-segment POST paths and passes others on.
  mountRecordsApi(app, deps);
  if (deps.config.consoleDir) app.use('*', consoleStatic(deps.config.consoleDir));
  root.start();
  // `services.jobs` lets job kinds register and tests await jobs; `stop()` ends workers before the db closes.
  return Object.assign(app, {
    services: { jobs, bulkLoads, journeyEngine, schedules, workers },
    /** Resolves once start-up recovery (commits a crash left half done) has ended. */
    ready: startupDone(deps),
    /** Stops timers and jobs at once; the promise ends when the worker threads have. */
    stop: (): Promise<void> => root.stop(),
  });
}

export type App = ReturnType<typeof createApp>;
