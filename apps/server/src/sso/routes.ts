import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { okResponse, ssoMetadataInput, ssoSettingResponse, userSsoCreated, userSsoRecord } from '@svc/contracts';
import { errorResponses, restSecurity, wireBody } from '../accounts';
import { apiKeyAuth, principalOf, requireAdmin } from '../platform/auth';
import { publicBase } from '../platform/config';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { type Params, readParams } from '../platform/params';
import { followMetadataUrl, metadataSource, refreshMetadata, stopFollowing } from './metadataUrl';
import { hasControlCharacter, serviceProvider } from './serviceProvider';
import { deleteSetting, getSetting, saveSetting, toWireSetting } from './settings';
import { createUserWithSso, setUserSsoMode } from './userSso';

const text = (field: string, max: number) =>
  z
    .string({ error: `"${field}" must be text.` })
    .trim()
    .min(1, `"${field}" must not be empty.`)
    .max(max, `"${field}" must be at most ${max} characters.`);
const nullableText = z.string({ error: 'must be text or null' }).nullable().optional();

const settingFields = z.object({
  sign_in_endpoint: z.string({ error: 'must be text' }).optional(),
  sign_out_endpoint: nullableText,
  cert: z.string({ error: 'must be text' }).optional(),
  identity_provider_name: z.string({ error: 'must be text' }).optional(),
  entity_id: nullableText,
  strategy: z.string({ error: 'must be text' }).optional(),
});
const settingBody = z.object({
  sso_setting: settingFields.describe('The fields to set; updated_at and other server-set fields are ignored'),
});

const email = z.email('must be an e-mail address').max(254);
const identifier = text('identifier', 255).refine((v) => !hasControlCharacter(v), 'must not hold control characters');
const firstName = text('user_first_name', 100).refine(
  (v) => !hasControlCharacter(v),
  'must not hold control characters',
);
const createFields = z.object({ user_first_name: firstName, email, identifier });
const modeFields = z.object({ user_email: email, identifier: identifier.optional() });
const identifiedModeFields = z.object({ user_email: email, identifier });

/** The user SSO bodies come as `{sso_setting: {...}}` (spec) or with the fields at the top (wire-compat §2.8). */
function ssoFields(params: Params): Record<string, unknown> {
  const nested = params.sso_setting;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) return { ...params, ...nested };
  return params;
}

/** Spec: these body fields are required; a missing one is named before anything else is checked. */
const REQUIRED = {
  create: ['user_first_name', 'email', 'identifier'],
  identified: ['user_email', 'identifier'],
  disable: ['user_email'],
} as const;

function parse<S extends z.ZodType>(schema: S, value: unknown, required: readonly string[] = []): z.infer<S> {
  const fields = (value ?? {}) as Record<string, unknown>;
  const missing = required.filter((k) => fields[k] === undefined || fields[k] === null || fields[k] === '');
  if (missing.length > 0) {
    const names = missing.map((k) => `"sso_setting.${k}"`).join(', ');
    throw badRequest(
      `${names} ${missing.length > 1 ? 'are' : 'is'} required: send ${missing.length > 1 ? 'them' : 'it'} in the body's sso_setting object.`,
    );
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const first = result.error.issues[0];
    const where = first?.path.length ? `"sso_setting.${first.path.join('.')}"` : 'The body';
    throw badRequest(`${where}: ${first?.message ?? 'is invalid'}.`, { issues: result.error.issues });
  }
  return result.data;
}

/** The e-mail in the path and in the body name one user; when both are given they must agree. */
function samePerson(pathValue: string, bodyValue: string | undefined, field: string): void {
  if (bodyValue !== undefined && bodyValue.toLowerCase() !== pathValue.toLowerCase()) {
    throw badRequest(`The ${field} in the path (${pathValue}) differs from "${field}" in the body (${bodyValue}).`);
  }
}

const pathValue = (params: Record<string, string | undefined>, name: string) => params[name] ?? '';

function routes(deps: AppDeps) {
  const base = { security: restSecurity, middleware: [apiKeyAuth(deps)] };
  const setting = (method: 'get' | 'post' | 'put' | 'delete', summary: string, codes: (400 | 404 | 409 | 415)[]) =>
    createRoute({
      ...base,
      method,
      path: '/v3/account/sso_setting',
      tags: ['Single sign-on'],
      summary,
      ...(method === 'post' || method === 'put'
        ? { request: { body: wireBody(settingBody, '{sso_setting: {sign_in_endpoint, sign_out_endpoint, cert, …}}') } }
        : {}),
      responses: {
        200: json(method === 'delete' ? okResponse : ssoSettingResponse, 'The SSO setting'),
        ...errorResponses(401, 403, ...codes),
      },
    });
  const userOp = (
    op: string,
    param: 'user_first_name' | 'user_email',
    summary: string,
    fields: z.ZodType,
    out: z.ZodType,
  ) =>
    createRoute({
      ...base,
      method: 'post',
      path: `/v3/user/${op}/{${param}}`,
      tags: ['Single sign-on'],
      summary,
      request: {
        params: z.object({ [param]: z.string().openapi({ param: { name: param, in: 'path' } }) }),
        body: wireBody(
          z.object({ sso_setting: fields }),
          'The sso_setting object (fields may also be sent at the top level)',
        ),
      },
      responses: { 200: json(out, 'The user’s SSO record'), ...errorResponses(400, 401, 403, 404, 409, 415) },
    });
  const metadata = (method: 'post' | 'delete', path: string, summary: string, codes: (400 | 404 | 409 | 415 | 422)[]) =>
    createRoute({
      ...base,
      method,
      path: `/v3/account/sso_setting/${path}`,
      tags: ['Single sign-on'],
      summary,
      ...(path === 'metadata' && method === 'post'
        ? { request: { body: wireBody(ssoMetadataInput, '{metadata_url: "https://idp.example.com/metadata"}') } }
        : {}),
      responses: {
        200: json(ssoSettingResponse, 'The SSO setting'),
        ...errorResponses(401, 403, ...codes),
      },
    });
  return {
    followMetadata: metadata(
      'post',
      'metadata',
      'Set the SSO setting from the identity provider’s metadata URL and follow it (administrators)',
      [400, 415, 422],
    ),
    refreshMetadata: metadata(
      'post',
      'metadata/refresh',
      'Fetch the followed metadata URL now; a failure is recorded and the setting stays (administrators)',
      [400, 404, 409, 422],
    ),
    stopMetadata: metadata(
      'delete',
      'metadata',
      'Stop following the metadata URL; the setting stays as it is (administrators)',
      [404],
    ),
    get: setting('get', 'The account’s SSO setting (administrators)', [404]),
    create: setting('post', 'Create or replace the SSO setting (administrators)', [400, 415]),
    update: setting('put', 'Update the SSO setting; omitted fields stay (administrators)', [400, 404, 415]),
    remove: setting('delete', 'Delete the SSO setting; refused while any user has SSO enforced', [404, 409]),
    createWithSso: userOp(
      'create_with_sso',
      'user_first_name',
      'Create a user who signs in with SSO only',
      createFields,
      userSsoCreated,
    ),
    enforce: userOp(
      'enforce_sso',
      'user_email',
      'Make SSO the only way the user signs in',
      identifiedModeFields,
      userSsoRecord,
    ),
    enable: userOp(
      'enable_sso',
      'user_email',
      'Let the user sign in with SSO or password',
      identifiedModeFields,
      userSsoRecord,
    ),
    disable: userOp(
      'disable_sso',
      'user_email',
      'Let the user sign in with a password only',
      modeFields,
      userSsoRecord,
    ),
  };
}

/** `/v3` SSO setting and user SSO operations (spec: SSO settings, User SSO). */
export function ssoRoutes(deps: AppDeps) {
  const r = routes(deps);
  const { db } = deps.storage;
  const origin = (url: string) => publicBase(deps.config, url);
  const settingResponse = async (url: string, accountId: number) => {
    const setting = await getSetting(db, accountId);
    return {
      sso_setting: toWireSetting(
        setting,
        deps.clock.now(),
        serviceProvider(origin(url), accountId),
        metadataSource(deps, setting),
      ),
    } as const;
  };
  const settingInput = async (c: Parameters<typeof readParams>[0]) => {
    const params = await readParams(c);
    if (!params.sso_setting || typeof params.sso_setting !== 'object' || Array.isArray(params.sso_setting)) {
      throw badRequest('Send the setting as {"sso_setting": {"sign_in_endpoint": …, "cert": …}}.');
    }
    return parse(settingFields, params.sso_setting);
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(r.get, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      return c.json(await settingResponse(c.req.url, p.accountId), 200);
    })
    .openapi(r.create, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      await saveSetting(deps, p, await settingInput(c), 'replace');
      return c.json(await settingResponse(c.req.url, p.accountId), 200);
    })
    .openapi(r.update, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      await saveSetting(deps, p, await settingInput(c), 'update');
      return c.json(await settingResponse(c.req.url, p.accountId), 200);
    })
    .openapi(r.followMetadata, async (c) => {
      const p = principalOf(c);
      await followMetadataUrl(deps, p, (await readParams(c)).metadata_url);
      return c.json(await settingResponse(c.req.url, p.accountId), 200);
    })
    .openapi(r.refreshMetadata, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      await refreshMetadata(deps, p.accountId, p);
      return c.json(await settingResponse(c.req.url, p.accountId), 200);
    })
    .openapi(r.stopMetadata, async (c) => {
      const p = principalOf(c);
      await stopFollowing(deps, p);
      return c.json(await settingResponse(c.req.url, p.accountId), 200);
    })
    .openapi(r.remove, async (c) => {
      await deleteSetting(deps, principalOf(c));
      return c.json({}, 200);
    })
    .openapi(r.createWithSso, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const fromPath = firstName.safeParse(pathValue(c.req.valid('param'), 'user_first_name'));
      if (!fromPath.success) {
        throw badRequest(`"user_first_name" in the path: ${fromPath.error.issues[0]?.message ?? 'is invalid'}.`);
      }
      const body = parse(createFields, ssoFields(await readParams(c)), REQUIRED.create);
      samePerson(fromPath.data, body.user_first_name, 'user_first_name');
      const user = await createUserWithSso(deps, p, {
        firstName: fromPath.data,
        email: body.email,
        identifier: body.identifier,
      });
      return c.json(
        { first_name: user.first_name ?? fromPath.data, email: user.email, identifier: body.identifier },
        200,
      );
    })
    .openapi(r.enforce, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const body = parse(identifiedModeFields, ssoFields(await readParams(c)), REQUIRED.identified);
      samePerson(pathValue(c.req.valid('param'), 'user_email'), body.user_email, 'user_email');
      const user = await setUserSsoMode(deps, p, body.user_email, 'enforced', body.identifier);
      return c.json({ email: user.email, identifier: user.sso_identifier }, 200);
    })
    .openapi(r.enable, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const body = parse(identifiedModeFields, ssoFields(await readParams(c)), REQUIRED.identified);
      samePerson(pathValue(c.req.valid('param'), 'user_email'), body.user_email, 'user_email');
      const user = await setUserSsoMode(deps, p, body.user_email, 'enabled', body.identifier);
      return c.json({ email: user.email, identifier: user.sso_identifier }, 200);
    })
    .openapi(r.disable, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const pathEmail = pathValue(c.req.valid('param'), 'user_email');
      const body = parse(modeFields, ssoFields(await readParams(c)), REQUIRED.disable);
      samePerson(pathEmail, body.user_email, 'user_email');
      const user = await setUserSsoMode(deps, p, body.user_email, 'disabled', body.identifier);
      return c.json({ email: user.email, identifier: user.sso_identifier }, 200);
    });
}
