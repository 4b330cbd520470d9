import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** API prefixes never fall back to the SPA: an unknown API path is a 404 error body. */
const API_PREFIXES = ['/v3/', '/v1/', '/entities/', '/audiences', '/postback/', '/console-api/', '/openapi.json'];

/**
 * Serves the built console. Files under /assets are content-hashed and cached for a year; any other
 * GET that is not an API path and not a file gets index.html, so react-router URLs survive a reload.
 */
export function consoleStatic(root: string): MiddlewareHandler<AppEnv> {
  const base = normalize(root + sep);
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const path = decodeURIComponent(new URL(c.req.url).pathname);
    if (API_PREFIXES.some((p) => path.startsWith(p))) return next();
    const file = normalize(join(base, path));
    if (file.startsWith(base)) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        const body = await readFile(file);
        const immutable = path.startsWith('/assets/');
        return c.body(body, 200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
      }
    }
    if (extname(path) !== '') return next();
    const index = await readFile(join(base, 'index.html')).catch(() => null);
    if (!index) return next();
    return c.body(index, 200, { 'content-type': TYPES['.html'] as string, 'cache-control': 'no-cache' });
  };
}
