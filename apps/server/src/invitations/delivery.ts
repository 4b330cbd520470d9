import type { SentLink } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { smtpMailer } from '../platform/mail';
import { type LinkKind, type LinkRow, markEmailed } from './links';

/** The console pages a link opens; the token rides in the fragment, which browsers never send to a server. */
const PAGE: Readonly<Record<LinkKind, string>> = { invitation: '/join', password_reset: '/reset-password' };

export const linkUrl = (base: string, kind: LinkKind, token: string) => `${base}${PAGE[kind]}#${token}`;

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The message for a link, in plain text: who sent it, what it does, until when. */
function message(row: LinkRow, url: string, accountName: string) {
  const until = utc(row.expires_at);
  if (row.kind === 'invitation') {
    const role = row.administrator === 1 ? 'an administrator' : 'a member';
    return {
      subject: `You are invited to ${accountName}`,
      text: [
        `${row.created_by} invited you to join the account "${accountName}" as ${role}.`,
        '',
        `Open this link to choose your name and password, or to join with single sign-on where the account uses it:`,
        url,
        '',
        `The link works once, until ${until}. If you did not expect this invitation, ignore this message.`,
      ].join('\n'),
    };
  }
  return {
    subject: `Reset your password for ${accountName}`,
    text: [
      `Someone asked to reset the password of ${row.email} in the account "${accountName}".`,
      '',
      'Open this link to choose a new password:',
      url,
      '',
      `The link works once, until ${until}. If you did not ask for it, ignore this message: your password stays as it is.`,
    ].join('\n'),
  };
}

/**
 * E-mails the link when SMTP is configured. Never throws: a refusal is logged (without the link) and
 * returned as `emailProblem`, since the link itself still works and the answer shows it.
 */
export async function deliver(
  deps: AppDeps,
  row: LinkRow,
  url: string,
  accountName: string,
): Promise<Omit<SentLink, 'link' | 'expiresAt'>> {
  const { smtp } = deps.config;
  if (!smtp) return { emailed: false };
  try {
    // The app's mailer; deps without services (no app) send through one of their own.
    const mailer = deps.services?.mail ?? smtpMailer(smtp);
    await mailer.send({ to: row.email, ...message(row, url, accountName) });
  } catch (err) {
    const problem = err instanceof Error ? err.message : String(err);
    deps.logger.warn('link e-mail not sent', { account: row.account_id, link: row.id, kind: row.kind, problem });
    return {
      emailed: false,
      emailProblem: `The e-mail could not be sent (${problem.slice(0, 300)}). Copy the link instead.`,
    };
  }
  await markEmailed(deps, row);
  return { emailed: true };
}
