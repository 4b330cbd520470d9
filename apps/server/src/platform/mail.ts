import { createTransport, type Transporter } from 'nodemailer';

/**
 * Outgoing e-mail (invitations, password resets) through the SMTP server the operator configured
 * (`SVC_SMTP_URL`, `SVC_SMTP_FROM`). Without one, nothing is sent and callers show the link instead.
 * The SMTP server is the operator's choice, not a user's, so it is not subject to the address policy.
 */
export interface SmtpSettings {
  /** `smtp://[user:password@]host[:port]` (STARTTLS when the server offers it) or `smtps://…` (TLS). */
  url: string;
  /** The sender, e.g. `CDP <no-reply@cdp.example.com>`. */
  from: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const SEND_TIMEOUT_MS = 15_000;
const transports = new WeakMap<SmtpSettings, Transporter>();

function transportFor(smtp: SmtpSettings): Transporter {
  let transport = transports.get(smtp);
  if (!transport) {
    const url = new URL(smtp.url);
    transport = createTransport({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      ...(url.username
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      connectionTimeout: SEND_TIMEOUT_MS,
      greetingTimeout: SEND_TIMEOUT_MS,
      socketTimeout: SEND_TIMEOUT_MS,
      // Messages carry one-time links: nodemailer's own logging stays off.
      logger: false,
      debug: false,
    });
    transports.set(smtp, transport);
  }
  return transport;
}

/** Sends one plain-text message; rejects with the SMTP server's refusal (never with the message's text). */
export async function sendMail(smtp: SmtpSettings, mail: Mail): Promise<void> {
  await transportFor(smtp).sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
}

/** `SVC_SMTP_URL` and `SVC_SMTP_FROM` from the environment; a bad value stops the start, naming it. */
export function smtpFromEnv(env: NodeJS.ProcessEnv): { smtp?: SmtpSettings } {
  const raw = env.SVC_SMTP_URL?.trim();
  if (!raw) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('SVC_SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587.');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new Error('SVC_SMTP_URL must start with smtp:// or smtps:// and name a host.');
  }
  const from = env.SVC_SMTP_FROM?.trim();
  if (!from)
    throw new Error('SVC_SMTP_FROM must name the sender when SVC_SMTP_URL is set, e.g. no-reply@cdp.example.com.');
  return { smtp: { url: raw, from } };
}
