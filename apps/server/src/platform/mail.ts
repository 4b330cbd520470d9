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

/** Sends through one SMTP server; the composition root makes the app's (`deps.services.mail`) and closes it. */
export interface Mailer {
  /** Sends one plain-text message; rejects with the SMTP server's refusal (never with the message's text). */
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function smtpMailer(smtp: SmtpSettings): Mailer {
  const transport = transportFor(smtp);
  return {
    send: async (mail) => {
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

function transportFor(smtp: SmtpSettings): Transporter {
  const url = new URL(smtp.url);
  return createTransport({
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
