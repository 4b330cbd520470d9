import type { Config } from '../platform/config';
import type { NewAccount } from './seed';

/**
 * The lines printed once on the first start. Generated secrets are shown (they exist nowhere else in
 * clear); secrets the operator supplied through the environment are never printed, only named.
 */
export function firstStartBanner(seeded: NewAccount, seed: Config['seed'], url: string, demoNote = ''): string {
  const password = seed.password ? 'as given in SVC_ADMIN_PASSWORD' : seeded.password;
  const masterKey = seed.apiKey ? 'as given in SVC_ADMIN_API_KEY' : seeded.masterKey;
  return `${[
    '',
    '  First start: a demo account was created.',
    `  Console            ${url}`,
    `  Administrator      ${seeded.email}`,
    `  Password           ${password}`,
    `  Master API key     ${masterKey}`,
    `  Write-only API key ${seeded.writeOnlyKey}`,
    ...(demoNote ? [demoNote, '  Delete it from the console banner or with DELETE /entities/demo.'] : []),
    '  Keep these now: they are not shown again.',
    '',
  ].join('\n')}\n`;
}
