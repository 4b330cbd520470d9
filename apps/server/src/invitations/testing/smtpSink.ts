import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { SmtpSettings } from '../../platform/mail';

/** A message as the SMTP server received it: envelope recipients, subject, and the decoded text body. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Decodes the one text part nodemailer sends (quoted-printable, base64 or as is). */
function decodeBody(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    text = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

/**
 * A real SMTP server on a free loopback port for tests: it keeps what it receives, and `next()` resolves
 * with the next message as it arrives (no polling, no sleeps). `refuse` makes it reject every recipient.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private waiters: ((m: ReceivedMail) => void)[] = [];
  private constructor(
    private readonly server: SMTPServer,
    readonly settings: SmtpSettings,
  ) {}

  static async start(options: { refuse?: boolean } = {}): Promise<SmtpSink> {
    let sink: SmtpSink | null = null;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (options.refuse) callback(new Error(`Mailbox ${address.address} unavailable`));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const mail = {
            to: session.envelope.rcptTo.map((r) => r.address),
            ...decodeBody(Buffer.concat(chunks).toString('latin1')),
          };
          sink?.arrive(mail);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    sink = new SmtpSink(server, { url: `smtp://127.0.0.1:${port}`, from: 'CDP <no-reply@cdp.test>' });
    return sink;
  }

  private arrive(mail: ReceivedMail) {
    const waiter = this.waiters.shift();
    if (waiter) waiter(mail);
    else this.received.push(mail);
  }

  /** The next message: one already received and not yet taken, or the next to arrive. */
  next(): Promise<ReceivedMail> {
    const ready = this.received.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The one-time link a message carries. */
export function linkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+#[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in the message: ${mail.text}`);
  return link;
}
